-- The weekly report by e-mail (src/services/weekly_report.ts). The dashboard's switch: no row means on (the
-- default whenever SMTP is configured); one row once the administrator has chosen.
create table weekly_report_setting (
  id boolean primary key default true check (id),
  enabled boolean not null,
  changed_at timestamptz not null
);

-- One row per ISO week whose report is due ("2026-W47"), shared by every instance: the instance that takes
-- the row's lease sends it, a failure schedules the next attempt (backoff), and a sent week is never sent
-- again. Counts only: no address, no figure, nothing personal.
create table weekly_reports (
  week text primary key check (week ~ '^[0-9]{4}-W[0-9]{2}$'),
  status text not null default 'pending' check (status in ('pending', 'sent')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null,
  -- Set while one instance is sending it: no other takes it before this time.
  lease_until timestamptz,
  last_error text,
  last_failure_at timestamptz,
  sent_at timestamptz,
  recipients integer
);
