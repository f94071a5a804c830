-- Unique visitors under one filter (docs/ANALYTICS.md, "Filters"). Each (month, visitor key) of visitor_days
-- gets a number, and per filter value and local day the numbers of the visitor keys whose page views had that
-- value that day are kept as one array: a period's distinct visitors under the filter are the distinct numbers
-- of its days (a key is per month, so a number is a visitor in one month, as the raw count has it). Numbers
-- instead of keys keep it small: about 8 bytes per visitor, filter value and day.
alter table visitor_days add column id bigint generated always as identity;
create unique index visitor_days_id on visitor_days (id);

create table daily_filter_visitors (
  filter text not null,
  value text not null,
  day date not null,
  -- visitor_days.id of each key, distinct and sorted.
  visitors bigint[] not null,
  primary key (filter, value, day)
);

-- The days rolled up before this migration have no rows here: the next roll-up run writes them from the raw
-- rows still kept, then clears this flag (until then, the summary under a filter reads the raw rows).
create table filter_visitors_backfill (id integer primary key default 1 check (id = 1));
insert into filter_visitors_backfill default values;
