-- Creatives and keywords rolled up (docs/ANALYTICS.md, "The creatives and keywords rankings"): per local day
-- and value of utm_content or utm_term, the page views with that value and the plan clicks of that day whose
-- session had a page view with it on the click's day or the day before. The unfiltered rankings read these
-- rows up to the watermark and the raw rows after it, like the other rankings.
create table daily_utm_detail (
  day date not null,
  dimension text not null check (dimension in ('utm_content', 'utm_term')),
  key text not null,
  visits integer not null,
  clicks integer not null,
  primary key (dimension, day, key)
);

-- The days rolled up before this migration have no rows here: the next roll-up run writes them from the raw
-- rows still kept, then clears this flag (until then, the rankings read the raw rows).
create table utm_detail_backfill (id integer primary key default 1 check (id = 1));
insert into utm_detail_backfill default values;
