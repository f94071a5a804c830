-- Unique visitors exact across month boundaries (docs/UNIQUE_VISITORS.md).
--
-- A visitor key is HMAC(month salt, IP), so one address has a different key each month. To recognise it
-- across months without keeping the address, each visit also carries its keys under the salts of the next
-- months that start within 61 days of the visit's local day (LINK_WINDOW_DAYS in
-- src/services/visitor_key.ts): `link_keys[1]` is its key for the next month, `[2]` for the month after,
-- and so on. Those salts are created ahead of their month and destroyed on the usual schedule (40 days after
-- their own month ends), so nothing is kept longer than before.
alter table visits add column link_keys text[];

-- The days in the 62 days before the row's month on which its key (as a link key) visited: bit i (0-based)
-- is the local day `month - 1 - i`. A row may exist before its month starts, with no bit in `days`.
alter table visitor_days add column before bigint not null default 0;

-- Distinct visitors of every range of days [first_day, last_day] at most 62 days long (LINK_WINDOW_DAYS + 1)
-- ending on a rolled-up day, whatever months it spans: 62 rows per day. Replaces visitor_ranges (ranges
-- within one month). A longer range is the sum of consecutive ranges, an upper bound the dashboard labels
-- as such.
create table visitor_spans (
  last_day date not null,
  first_day date not null,
  visitors integer not null,
  primary key (last_day, first_day)
);
drop table visitor_ranges;

-- Roll up again every day that still has raw rows, so visitor_spans covers them (the roll-up job does it on
-- its next run, a few seconds after start). Their visits carry no link keys, so across a month's end
-- they can still count twice; visits from now on do not.
update rollup_state set through = purged_through, until = null;
delete from daily_totals where day > (select purged_through from rollup_state);
delete from daily_visit_ranks where day > (select purged_through from rollup_state);
delete from daily_source_actions where day > (select purged_through from rollup_state);

-- Lead search ignores case and accents ("luiza" finds "Luíza") on PostgreSQL and PGlite alike, with no
-- extension (unaccent is not in every PGlite build): a stored, normalised copy of name and e-mail. The
-- same expression normalises the search text (src/db/dashboard_queries.ts FOLD). Searches run within the period,
-- through leads_submitted_at_idx.
alter table leads add column search_text text generated always as (
  translate(lower(name || ' ' || email), 'áàâãäåāăąçćčéèêëēėęěíìîïīįñńňóòôõöøōőúùûüūůűýÿžźż',
    'aaaaaaaaaccceeeeeeeeiiiiiinnnoooooooouuuuuuuyyzzz')
) stored;
