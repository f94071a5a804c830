-- A day's visitors before a time of day (docs/UNIQUE_VISITORS.md, "A day up to a time"): per local day, the
-- second (elapsed since the local midnight, rounded down) of each visitor key's first page view that day, sorted.
-- "Hoje" is compared with yesterday up to the same time: the distinct visitors of yesterday before that time are
-- the seconds below it, one integer array read instead of a day of raw page views.
create table daily_first_visits (
  day date primary key,
  seconds integer[] not null
);

-- The days rolled up before this migration have no row: the next roll-up run writes them from the raw rows still
-- kept, then clears this flag (until then, and for a day without a row, the count reads the raw rows).
create table daily_first_visits_backfill (id integer primary key default 1 check (id = 1));
insert into daily_first_visits_backfill default values;
