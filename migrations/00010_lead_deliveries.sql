-- Lead delivery outbox (issue 17): one row per lead and destination, written in the lead's transaction.
-- The row holds no copy of the lead: the worker reads the lead when it sends, so erasing a lead (LGPD)
-- erases its deliveries with it (on delete cascade) and nothing personal is kept here.
create table lead_deliveries (
  id bigint generated always as identity primary key,
  lead_id bigint not null references leads (id) on delete cascade,
  destination text not null check (destination in ('webhook', 'pipefy', 'trello', 'email')),
  -- Stable across retries: the webhook-id receivers de-duplicate on, the e-mail's Message-ID.
  event_id text not null unique,
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null,
  -- Set while one worker is sending it (with next_attempt_at as the end of the lease), null otherwise.
  lease_token text,
  -- The latest failed attempt, kept after a later success (the dashboard's panel shows it).
  last_error text,
  last_failure_at timestamptz,
  -- The card id or message id the destination answered with.
  external_ref text,
  created_at timestamptz not null,
  -- Transient failures are retried for 3 days from here: the lead's arrival, or the last "Reenviar".
  retry_since timestamptz not null,
  delivered_at timestamptz,
  unique (lead_id, destination)
);
create index lead_deliveries_due_idx on lead_deliveries (destination, next_attempt_at) where status = 'pending';
create index lead_deliveries_delivered_idx on lead_deliveries (destination, delivered_at);
create index lead_deliveries_failure_idx on lead_deliveries (destination, last_failure_at);
