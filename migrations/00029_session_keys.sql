-- The session keys of each plan or WhatsApp click and each lead (docs/ANALYTICS.md, "Filters"): a click or a
-- lead has no page, UTM content, UTM term or entry page of its own, and the filters on those select it when its
-- session had a page view with that value on the event's local day or the day before. Looking that up in the
-- page views of a whole period cost a second per report; the roll-up job writes it once per event instead, when
-- the event's day is over (its session's views of that day are all in), as one row per (event, filter, value).
create table session_keys (
  event text not null check (event in ('click', 'lead')),
  filter text not null,
  value text not null,
  -- the event's local day in the analytics time zone
  day date not null,
  -- clicks.id or leads.id
  id bigint not null,
  primary key (event, filter, value, day, id)
);

-- Every event before `until` (a local midnight) has its keys; the events after it are looked up in the page
-- views. No row: none has them yet, every event is looked up (as before this migration).
create table session_keys_state (
  id integer primary key default 1 check (id = 1),
  until timestamptz not null
);

-- The next roll-up run writes the keys of every event whose day still has raw page views, then clears the flag.
create table session_keys_backfill (id integer primary key default 1 check (id = 1));
insert into session_keys_backfill default values;

-- The clicks' roll-up per filter value (00027) now also keeps the page, UTM content, UTM term and entry page,
-- each click under its session's values of the same two days: the next run rewrites every kept day of it.
insert into filter_actions_backfill default values on conflict do nothing;
