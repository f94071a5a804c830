-- Roll-ups of every local day (ANALYTICS_TZ) up to a few minutes ago, not only of purged days, so the
-- dashboard reads a few hundred small rows instead of a month of raw events. Written by the roll-up job
-- (src/services/rollups.ts: every few minutes, and by the retention job) in one transaction with the
-- watermark below.
--
-- The invariant, which every dashboard query relies on and applies inside its own statement (one snapshot):
--   * every event before rollup_state.until is in the roll-up tables (daily_totals, daily_visit_ranks,
--     daily_source_actions of 00005, and the visitor tables below), which hold rows for days up to
--     rollup_state.through, the local day of `until` (that last day only partly, up to `until`);
--   * events from `until` on are read from the raw tables only (raw rows are kept; retention still purges
--     them after RETENTION_DAYS, always long before `until`);
--   * raw events of days <= rollup_state.purged_through are gone: for those days unique visitors over
--     several days stay the sum of daily uniques, as 00005 documents.
-- So no event is counted twice and none is missed. `until` stays a couple of minutes behind the clock, so
-- writes that commit a little after they were stamped (batched tracking) still land after it. The job
-- rewrites the rows of the day `until` is in (and later ones) each time it moves `until`; earlier days are
-- final.
--
-- 00005 wrote roll-ups only for purged days: those are exactly the days up to the newest one it wrote, so
-- `until` is the local midnight after that day (null stands for it: the time zone is not known here).
create table rollup_state (
  id boolean primary key default true check (id),
  through date not null,
  until timestamptz,
  purged_through date not null
);
insert into rollup_state (through, until, purged_through)
select coalesce(max(day), '-infinity'), null, coalesce(max(day), '-infinity') from daily_totals;

-- Exact unique visitors over any range of rolled-up days. A visitor key lives within one local calendar
-- month (its salt's), so one row per (month, key) with a bitmap of the days of that month it visited
-- (bit d-1 for day d) says whether the key visited within any set of that month's days. Kept only for
-- days that still have raw rows (retention clears the bits of the days it purges).
create table visitor_days (
  month date not null,
  visitor_key text not null,
  days integer not null,
  -- The latest day of the month the key visited (the highest bit).
  last_day smallint not null,
  primary key (month, visitor_key)
);

-- Distinct visitor keys of each range of days [first_day, last_day] within a month, for every last_day
-- rolled up (so a month of 31 days has at most 496 rows). Written when last_day is rolled up: the ranges
-- ending the day before plus the keys whose first visit on or after first_day falls on last_day. Over
-- several months, the ranges of each month add up, since no key belongs to two months.
create table visitor_ranges (
  month date not null,
  first_day smallint not null,
  last_day smallint not null,
  visitors integer not null,
  primary key (month, first_day, last_day)
);
