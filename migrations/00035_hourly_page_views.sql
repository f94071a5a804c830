-- Page views and visible time per whole hour (docs/ANALYTICS.md, "Hour by hour"): a comparison's last day up to
-- the time it is now counts its page views and visible time from its whole hours' rows and the raw rows of the
-- hour the cut falls in, instead of the day's raw rows up to the cut. Null in the rows written before this
-- migration: the next roll-up run writes the hours of every kept day again, then clears this flag; a reading that
-- finds a whole hour without them reads the raw rows.
alter table hourly_totals add column page_views integer, add column engaged_ms bigint;

create table hourly_totals_backfill (id integer primary key default 1 check (id = 1));
insert into hourly_totals_backfill default values;
