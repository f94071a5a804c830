-- What the background jobs did (src/services/jobs.ts), shared by every instance so the dashboard's "Saúde
-- do sistema" and /readyz show the cluster's latest run of each job, whichever instance ran it. One row per
-- job, overwritten by each record: a run of the jobs that run minutes apart, a minute's summary of the
-- delivery loops that run every two seconds.
create table job_runs (
  name text primary key,
  -- The job's interval when recorded: a run older than a few intervals means the job stopped running.
  every_ms integer not null,
  started_at timestamptz not null,
  finished_at timestamptz not null,
  -- The record's runs, summed (1 for a job recorded run by run).
  runs integer not null,
  failed_runs integer not null,
  duration_ms integer not null,
  status text not null check (status in ('done', 'failed')),
  -- What the runs did (counts), never personal data.
  result jsonb not null,
  last_success_at timestamptz,
  last_failure_at timestamptz,
  -- The latest failure's message, kept after a later success (like lead_deliveries.last_error).
  last_error text
);

-- Whether each lead destination is failing: failed attempts in a row across leads and instances (a success
-- resets it); at two it is failing. The administrator gets one e-mail when a destination starts failing and
-- one when it recovers, sent by the one statement that changed the state; one lead failing again and again
-- among leads that go through never makes two in a row.
create table lead_destination_alerts (
  destination text primary key check (destination in ('webhook', 'pipefy', 'trello', 'email')),
  failures_in_a_row integer not null,
  failing boolean not null,
  changed_at timestamptz not null
);
