-- Daily roll-ups kept after raw visits, clicks and conversions are purged (RETENTION_DAYS, default 400).
-- Written by the retention job (src/services/retention.ts) for whole days, in ANALYTICS_TZ, just before
-- their raw rows are deleted; a day, once written, is never rewritten. A day has roll-up rows only when
-- its raw rows are gone, so a query may add roll-ups to raw counts without counting anything twice.
-- Unique visitors are exact per day; over several purged days only the sum of daily uniques is known.

-- Headline counts per local day.
create table daily_totals (
  day date primary key,
  visits integer not null,
  unique_visitors integer not null,
  clicks integer not null,
  conversions integer not null
);

-- Visits per local day per UTM source, UTM campaign or page (the dashboard's rankings). `key` is never
-- empty: visits without that attribute are not ranked.
create table daily_visit_ranks (
  day date not null,
  dimension text not null check (dimension in ('utm_source', 'utm_campaign', 'page')),
  key text not null check (key <> ''),
  visits integer not null,
  primary key (day, dimension, key)
);

-- Plan-button clicks and conversions per local day per UTM source ('' = no UTM source), for the
-- conversion-by-source table.
create table daily_source_actions (
  day date not null,
  utm_source text not null,
  clicks integer not null,
  conversions integer not null,
  primary key (day, utm_source)
);
