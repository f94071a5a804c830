-- Leads per local day and value of each of their own columns that a panel below the fold counts them by
-- (docs/ANALYTICS.md, "Leads"): device, browser, OS, country, region (the audience panels), the WhatsApp
-- number's state and the UTM content and term (the creatives and keywords). Like daily_lead_totals (00036),
-- the days before the watermark are read here and the leads after it from the leads table; a lead stored late
-- and an erased lead change these rows in their own transaction (src/db/lead_totals.ts). '' stands for none.
create table daily_lead_dims (
  day date not null,
  dimension text not null,
  key text not null,
  leads integer not null,
  primary key (day, dimension, key)
);

-- The days rolled up before this migration have no rows: the next roll-up run writes every day that has a lead,
-- then clears this flag; until then the readers count the leads table alone.
create table daily_lead_dims_backfill (id integer primary key default 1 check (id = 1));
insert into daily_lead_dims_backfill default values;
