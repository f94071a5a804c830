-- "Leads por estado" (docs/AUDIENCE.md): the Brazilian state of a lead's WhatsApp number (its DDD,
-- src/shared/br_states.ts), derived once when the lead is stored instead of on every read of the panel.
-- '' for a number that is foreign or cannot be read; null for a lead stored before this migration, whose
-- state the roll-up job derives and stores (readers derive it themselves until then).
alter table leads add column whatsapp_state text;
create index leads_whatsapp_state_pending on leads (id) where whatsapp_state is null;
