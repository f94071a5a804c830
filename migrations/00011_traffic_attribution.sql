-- Where visitors come from (issue 18): each page view and plan click keeps the touch of its browser session,
-- derived by the server when it is written (src/services/attribution.ts): source (UTM source, else the ad
-- network of a paid click id, else the referrer's known name or host, else 'direto'), medium and channel
-- (GA4's default channel group, stored as an id: src/shared/channels.ts). Stored per event, so the roll-ups
-- group by them. New personal data: none; the referrer is a host name and the click ids are flags.
--
-- Rows written before this migration have none of these (null): they are counted in no channel, source or
-- entry page, in the raw rows and the roll-ups alike, so the roll-ups stay exact without rolling anything up
-- again.
alter table visits
  add column referrer_host text,
  -- The click ids present on the landing URL (names only, never their values).
  add column click_ids text[],
  add column traffic_source text,
  add column traffic_medium text,
  add column channel text,
  -- True for the page that started the session's touch (its landing page): "Páginas de entrada".
  add column entry boolean not null default false;

-- First touch of a lead: the visitor's earliest entry in the attribution window, found by visitor key.
create index visits_entry_visitor_idx on visits (visitor_key, occurred_at) where entry;

alter table clicks
  add column traffic_source text,
  add column channel text;

-- A conversion takes the channel of the lead it reports (its session's latest lead).
alter table conversions add column channel text;

-- Each lead keeps its first touch (the visitor's first session in ATTRIBUTION_DAYS) and last touch (the
-- session that converted).
alter table leads
  add column first_source text,
  add column first_medium text,
  add column first_campaign text,
  add column first_channel text,
  add column first_landing_page text,
  add column first_touch_at timestamptz,
  add column last_source text,
  add column last_medium text,
  add column last_campaign text,
  add column last_channel text,
  add column last_landing_page text,
  add column last_referrer text;
-- Leads per channel over a period ("Canais"): read from the submitted_at index alone, not from every lead
-- row, once it carries the channel (the same index, so no second one to keep up on each insert).
drop index leads_submitted_at_idx;
create index leads_submitted_at_idx on leads (submitted_at) include (last_channel);

-- Roll-ups: visits per traffic source, per channel, and entries per landing page, beside 00005's dimensions.
alter table daily_visit_ranks drop constraint daily_visit_ranks_dimension_check;
alter table daily_visit_ranks add constraint daily_visit_ranks_dimension_check
  check (dimension in ('utm_source', 'utm_campaign', 'page', 'source', 'channel', 'entry_page'));

-- Plan clicks and conversions per local day per channel, like daily_source_actions per UTM source.
create table daily_channel_actions (
  day date not null,
  channel text not null,
  clicks integer not null,
  conversions integer not null,
  primary key (day, channel)
);
