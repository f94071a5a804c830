-- WhatsApp clicks (issue 29): a click on any WhatsApp button or link of the public pages is stored in `clicks`
-- beside the plan-button clicks, told apart by `kind`. Every existing figure named "Cliques" keeps counting plan
-- clicks only (kind = 'plan', the default, so rows written before this migration are plan clicks); WhatsApp
-- clicks get their own roll-up columns, so the dashboard's sums stay exact without rolling anything up again.
-- A WhatsApp click's `source` is the page it was clicked on (path, no query), not a button name.
alter table clicks add column kind text not null default 'plan' check (kind in ('plan', 'whatsapp'));

alter table daily_totals add column whatsapp_clicks integer not null default 0;
alter table daily_source_actions add column whatsapp_clicks integer not null default 0;
alter table daily_channel_actions add column whatsapp_clicks integer not null default 0;

-- WhatsApp clicks per page ("Páginas com cliques no WhatsApp"): in daily_visit_ranks under their own dimension,
-- whose `visits` column then holds clicks.
alter table daily_visit_ranks drop constraint daily_visit_ranks_dimension_check;
alter table daily_visit_ranks add constraint daily_visit_ranks_dimension_check
  check (dimension in ('utm_source', 'utm_campaign', 'page', 'source', 'channel', 'entry_page', 'whatsapp_page'));
