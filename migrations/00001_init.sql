-- Initial schema. Times are timestamptz (UTC inside); analytics days are computed in ANALYTICS_TZ at query time.

-- Leads captured by the pricing modal. idempotency_key makes browser re-sends store a lead once.
create table leads (
  id bigint generated always as identity primary key,
  idempotency_key text unique,
  name text not null,
  email text not null,
  whatsapp text not null,
  plan text not null check (plan in ('micro', 'pro', 'premium', 'enterprise', 'unknown')),
  plan_label text not null default '',
  utm_source text,
  utm_campaign text,
  utm_medium text,
  page text,
  submitted_at timestamptz not null default now()
);
create index leads_submitted_at_idx on leads (submitted_at);
create index leads_email_idx on leads (lower(email));

-- Page views. visitor_key = HMAC(month salt, client IP): never the IP itself.
create table visits (
  id bigint generated always as identity primary key,
  occurred_at timestamptz not null default now(),
  visitor_key text not null,
  session_id text not null default '',
  source text not null,
  utm_source text,
  utm_campaign text,
  utm_medium text,
  utm_term text,
  utm_content text
);
create index visits_occurred_at_idx on visits (occurred_at);

-- Plan-button clicks (the modal opened).
create table clicks (
  id bigint generated always as identity primary key,
  occurred_at timestamptz not null default now(),
  visitor_key text not null,
  session_id text not null default '',
  source text not null,
  utm_source text,
  utm_campaign text,
  utm_medium text
);
create index clicks_occurred_at_idx on clicks (occurred_at);

-- Submitted lead forms, as reported by the tracking call.
create table conversions (
  id bigint generated always as identity primary key,
  occurred_at timestamptz not null default now(),
  visitor_key text not null,
  session_id text not null default '',
  source text not null,
  utm_source text,
  utm_campaign text,
  utm_medium text
);
create index conversions_occurred_at_idx on conversions (occurred_at);

-- The single administrator (a table, so a reset or a rename needs no schema change).
create table admins (
  id bigint generated always as identity primary key,
  email text not null unique,
  password_hash text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- Sessions: id is SHA-256(token) in hex; the token itself only ever lives in the cookie.
create table sessions (
  id text primary key,
  admin_id bigint not null references admins (id) on delete cascade,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index sessions_admin_idx on sessions (admin_id);
create index sessions_expires_idx on sessions (expires_at);

-- Fixed-window rate-limit counters shared by every instance.
create table rate_limits (
  bucket text not null,
  window_start timestamptz not null,
  hits integer not null default 0,
  primary key (bucket, window_start)
);

-- Failed admin logins, counted per client key and per account.
create table login_failures (
  id bigint generated always as identity primary key,
  client_key text not null,
  account text not null,
  occurred_at timestamptz not null default now()
);
create index login_failures_client_idx on login_failures (client_key, occurred_at);
create index login_failures_account_idx on login_failures (account, occurred_at);

-- One random salt per calendar month ('2026-11'); destroyed ~40 days after its month ends.
create table visitor_salts (
  month text primary key,
  salt bytea not null,
  created_at timestamptz not null default now()
);

-- Server-side Meta events waiting for delivery (outbox).
create table meta_outbox (
  id bigint generated always as identity primary key,
  event_id text not null unique,
  event_name text not null,
  payload jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz
);
create index meta_outbox_due_idx on meta_outbox (next_attempt_at) where status = 'pending';
