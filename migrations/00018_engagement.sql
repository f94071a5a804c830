-- Engagement (docs/ANALYTICS.md, "Engagement"): the visible time the browser measures on each page, sent when
-- the page is hidden, and the daily roll-ups of visits (sessions), bounces and visible time.

-- One row per beacon: the visible time (ms) since the page's previous beacon. No visitor key and no address:
-- the session id and page key tie it to the page views already stored.
create table engagements (
  id bigint generated always as identity primary key,
  occurred_at timestamptz not null default now(),
  session_id text not null default '',
  source text not null,
  engaged_ms integer not null check (engaged_ms > 0)
);
create index engagements_occurred_at_idx on engagements (occurred_at);

-- Per local day: visits (a browser session's page views on that day), those with one page view and no plan
-- click (bounces), page views, and the visible time received that day.
create table daily_engagement (
  day date primary key,
  sessions integer not null,
  bounces integer not null,
  page_views integer not null,
  engaged_ms bigint not null
);

-- Per local day and page key: page views and the visible time received for the page ("Tempo na página").
create table daily_page_engagement (
  day date not null,
  page text not null,
  views integer not null,
  engaged_ms bigint not null,
  primary key (day, page)
);

-- The days rolled up before this migration have no engagement rows: the next roll-up run writes them from
-- the raw rows still kept (the watermark is a local day the SQL cannot compute without ANALYTICS_TZ), then
-- clears this flag.
create table engagement_backfill (id integer primary key default 1 check (id = 1));
insert into engagement_backfill default values;
