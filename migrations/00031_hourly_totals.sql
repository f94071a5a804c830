-- The one-day chart's hours rolled up (docs/ANALYTICS.md, "Today by the hour"): per hour (its first instant; an
-- hour of elapsed time from a local midnight in the analytics time zone), its distinct visitors and its plan and
-- WhatsApp clicks. The roll-up job writes every hour that ended before its watermark, an hour with no event
-- included, so a row means "rolled up": the chart reads these rows and the raw rows of the hours without one
-- (the hour under way, the days rolled up before this migration). Leads are read from their own table, as every
-- report reads them (an erased lead leaves no count behind).
create table hourly_totals (
  hour timestamptz primary key,
  visitors integer not null,
  plan_clicks integer not null,
  whatsapp_clicks integer not null
);
