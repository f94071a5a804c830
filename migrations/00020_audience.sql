-- Who the visitors are (docs/AUDIENCE.md): small categories derived at ingestion from a page view's or plan
-- click's user agent and client hints (device class, browser and operating system family and major version)
-- and from its client address (country, and Brazilian state when the IP database has states). Neither the
-- user agent nor the address is stored. Rows stored before this migration have none of them (null: shown as
-- "Não identificado").
alter table visits
  add column device text,
  add column browser text,
  add column browser_version text,
  add column os text,
  add column os_version text,
  add column country text,
  add column region text;
alter table clicks
  add column device text,
  add column browser text,
  add column browser_version text,
  add column os text,
  add column os_version text,
  add column country text,
  add column region text;

-- A lead takes its session's categories from its latest page view, as its utm_content and utm_term (00016).
alter table leads
  add column device text,
  add column browser text,
  add column os text,
  add column country text,
  add column region text;
update leads l set device = v.device, browser = v.browser, os = v.os, country = v.country, region = v.region
  from (
    select distinct on (x.id) x.id, s.device, s.browser, s.os, s.country, s.region
      from leads x join visits s on s.session_id = x.session_id
     where x.session_id is not null and x.session_id <> ''
       and s.occurred_at <= x.submitted_at + interval '1 minute'
       and s.occurred_at > x.submitted_at - interval '6 hours'
     order by x.id, s.occurred_at desc) v
 where v.id = l.id and v.device is not null;

-- Per local day, dimension and value: page views and plan clicks ('' for events without the value). Rolled up
-- with the other roll-ups from the watermark's day on; days rolled up before this migration have no rows here
-- (their raw rows had no values anyway).
create table daily_audience (
  day date not null,
  dimension text not null check (dimension in ('device', 'browser', 'os', 'country', 'region')),
  key text not null,
  visits integer not null,
  clicks integer not null,
  primary key (day, dimension, key)
);
