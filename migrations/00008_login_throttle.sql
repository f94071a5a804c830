-- Issue 20. Sign-in throttling: a failure is now recorded (reserved) before the password is checked, under a
-- per-account lock, and deleted again when the password was right; a browser that signed in before carries
-- a device token (only its SHA-256 is stored) and only failures under that token count against it.
alter table login_failures add column device text;
create index login_failures_device_idx on login_failures (device, occurred_at) where device is not null;

create table login_devices (
  id text primary key,
  account text not null,
  created_at timestamptz not null default now()
);

-- A conversion is counted only for a stored lead of the same tracking session (no more conversions than
-- leads): the lead keeps the browser's tracking session id.
alter table leads add column session_id text;
create index leads_session_id_idx on leads (session_id) where session_id is not null;
-- A Meta `Lead` event from the browser is accepted only for a stored lead with that event id.
alter table leads add column event_id text;
create index leads_event_id_idx on leads (event_id) where event_id is not null;
-- Conversions per tracking session are counted against that session's leads.
create index conversions_session_id_idx on conversions (session_id) where session_id <> '';
