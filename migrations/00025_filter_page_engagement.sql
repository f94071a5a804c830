-- "Tempo na página" under one filter (docs/ANALYTICS.md, "Filters"): per filter value, local day and page, the
-- selected page views of the page and the visible time on it of the sessions with such a view that day, so a
-- view with one filter reads these rows for its final days (as daily_filter_engagement, migration 00022).
create table daily_filter_page_engagement (
  filter text not null,
  value text not null,
  day date not null,
  page text not null,
  views integer not null,
  engaged_ms bigint not null,
  primary key (filter, value, day, page)
);

-- The days rolled up before this migration have no rows here: the next roll-up run writes them from the raw
-- rows still kept, then clears this flag (until then, "Tempo na página" under a filter reads the raw rows).
create table filter_page_engagement_backfill (id integer primary key default 1 check (id = 1));
insert into filter_page_engagement_backfill default values;
