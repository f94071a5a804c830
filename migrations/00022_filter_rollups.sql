-- Roll-ups per filter value (docs/ANALYTICS.md, "Filters").
-- Engagement under one filter: per local day and per value of each dimension a page view carries (channel,
-- traffic source, the five UTM values, page key), the figures of the page views with that value: visits
-- (sessions with such a view that day), those of them that bounced (one page view that day, any page, and no
-- plan click), the selected page views, and the visible time of those sessions that day (on that page only,
-- for a page key). A view with one filter reads these rows for its final days.
create table daily_filter_engagement (
  day date not null,
  dimension text not null,
  key text not null,
  sessions integer not null,
  bounces integer not null,
  page_views integer not null,
  engaged_ms bigint not null,
  -- Distinct visitor keys of those page views that day (the daily unique visitors under the filter).
  visitors integer not null,
  primary key (dimension, key, day)
);

-- The days rolled up before this migration have no rows here: the next roll-up run writes them from the raw
-- rows still kept, then clears this flag (until then, the filtered views read the raw rows). It stands for
-- both tables.
create table filter_engagement_backfill (id integer primary key default 1 check (id = 1));
insert into filter_engagement_backfill default values;

-- The rankings under one such filter: per local day, filter dimension and value, the visits per UTM source,
-- UTM campaign, page key, traffic source and channel, and the entries per landing page (as daily_visit_ranks
-- for the unfiltered view), so a view with one filter reads these rows up to the watermark.
create table daily_filter_visit_ranks (
  filter text not null,
  value text not null,
  day date not null,
  dimension text not null,
  key text not null,
  visits integer not null,
  primary key (filter, value, dimension, day, key)
);
