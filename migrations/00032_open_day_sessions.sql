-- The watermark's day session by session (docs/ANALYTICS.md, "Engagement"): per session with a page view or a
-- click on that local day up to the watermark, its page views and whether it clicked. A period without a cut then
-- reads that day's visits and bounces from daily_engagement's row for it (written up to the watermark too) and
-- corrects them with the few sessions of the raw rows after the watermark, each looked up here: a session that
-- started before the watermark is not counted twice, and a bounce that goes on after it stops being one. The
-- roll-up job rewrites these rows on every run; they hold one day at most.
create table open_day_sessions (
  day date not null,
  session text not null,
  views integer not null,
  clicked boolean not null,
  primary key (day, session)
);

-- Until the first roll-up run after this migration has written them, periods read the watermark's day from the
-- raw rows, as before.
create table open_day_sessions_backfill (id integer primary key default 1 check (id = 1));
insert into open_day_sessions_backfill default values;
