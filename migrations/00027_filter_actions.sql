-- Plan and WhatsApp clicks under one filter (docs/ANALYTICS.md, "Filters"). A click carries its session's
-- channel, traffic source and UTM source, medium and campaign itself, so a filter on one of those selects
-- clicks by their own column, and the counts of whole days add up. Per local day, filter and value, the clicks
-- of each kind ('plan', 'whatsapp') per breakdown: 'all' (key ''), 'channel' (clicks without one left out),
-- 'utm_source' ('' for none) and 'page' (WhatsApp clicks only, the page they were on). A view with one such
-- filter reads these rows up to the watermark and the raw clicks after it.
create table daily_filter_actions (
  filter text not null,
  value text not null,
  day date not null,
  kind text not null,
  dimension text not null,
  key text not null,
  clicks integer not null,
  primary key (filter, value, kind, dimension, day, key)
);

-- The days rolled up before this migration have no rows here: the next roll-up run writes them from the raw
-- rows still kept, then clears this flag (until then, the filtered views read the raw rows).
create table filter_actions_backfill (id integer primary key default 1 check (id = 1));
insert into filter_actions_backfill default values;
