-- The roll-ups per filter value (00022, 00025, 00026, 00027) now also keep each pair of the session's touch
-- filters (channel, traffic source and the five UTM values): dimension "channel+utm_source", value the two
-- values joined by U+001F (docs/ANALYTICS.md, "Filters"; src/db/filter_dimensions.ts), so a view with two
-- such filters reads them instead of every raw row of its period. No column changes. The days rolled up before
-- this migration have no pair rows: the next roll-up run rewrites every day whose raw rows are kept, then
-- clears these flags (until then, filtered views read the raw rows).
insert into filter_engagement_backfill default values on conflict do nothing;
insert into filter_page_engagement_backfill default values on conflict do nothing;
insert into filter_visitors_backfill default values on conflict do nothing;
insert into filter_actions_backfill default values on conflict do nothing;
