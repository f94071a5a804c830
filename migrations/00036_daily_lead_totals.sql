-- Leads per local day, UTM source and last-touch channel (docs/ANALYTICS.md, "Leads"): the headline, the daily
-- chart, the channels table and the conversion by UTM source count the leads of the days before the roll-up
-- watermark from these rows and only the leads after it from the leads table, as every other figure does. A
-- lead is never purged, but it can be erased on request: the erasure takes the roll-up lock and takes its leads
-- out of these rows in the same transaction (src/db/lgpd.ts). '' stands for no UTM source or no channel.
create table daily_lead_totals (
  day date not null,
  utm_source text not null,
  last_channel text not null,
  leads integer not null,
  primary key (day, utm_source, last_channel)
);

-- The days rolled up before this migration have no rows: the next roll-up run writes every day that has a lead,
-- then clears this flag; until then the readers count the leads table alone.
create table daily_lead_totals_backfill (id integer primary key default 1 check (id = 1));
insert into daily_lead_totals_backfill default values;
