-- Whole months of two day roll-ups (docs/ANALYTICS.md, "Months"): the visits per ranking key
-- (daily_visit_ranks) and the page views and visible time per page (daily_page_engagement), added up per local
-- month. A page key is a path and its query, so a month has a few hundred of them on every day: at 10,000,000
-- visits a month of the pages ranking was 19,000 day rows to add up, against about 800 month rows. A month row
-- holds the month's day rows as they are, up to the roll-up's last day, and the roll-up job rewrites the
-- months of the days it rewrites (src/db/months.ts).
create table monthly_visit_ranks (
  month date not null,
  dimension text not null,
  key text not null,
  visits integer not null,
  primary key (month, dimension, key)
);

create table monthly_page_engagement (
  month date not null,
  page text not null,
  views integer not null,
  engaged_ms bigint not null,
  primary key (month, page)
);

-- Every month rolled up so far (the days are local days already).
insert into monthly_visit_ranks (month, dimension, key, visits)
select date_trunc('month', day)::date, dimension, key, sum(visits)::int from daily_visit_ranks group by 1, 2, 3;

insert into monthly_page_engagement (month, page, views, engaged_ms)
select date_trunc('month', day)::date, page, sum(views)::int, sum(engaged_ms)::bigint
  from daily_page_engagement group by 1, 2;
