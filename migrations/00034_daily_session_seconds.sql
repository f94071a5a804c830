-- A day's visits and bounces up to a time of day (docs/ANALYTICS.md, "Engagement"): per local day, two sorted
-- arrays of seconds elapsed since the local midnight (rounded down): `starts`, when each session with a page view
-- that day had its first one; `settles`, when each session that did not stay a bounce stopped being one (its
-- second page view or its first click of the day, whichever came first, never before its first page view). A
-- comparison's last day up to the time it is now then counts its visits as the starts below that second, and its
-- bounces as those minus the settles below it, instead of grouping a day of raw page views by session.
create table daily_session_seconds (
  day date primary key,
  starts integer[] not null,
  settles integer[] not null
);

-- The days rolled up before this migration have no row: the next roll-up run writes them from the raw rows still
-- kept, then clears this flag (until then, and for a day without a row, the raw rows answer).
create table daily_session_seconds_backfill (id integer primary key default 1 check (id = 1));
insert into daily_session_seconds_backfill default values;
