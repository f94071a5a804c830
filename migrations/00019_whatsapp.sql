-- WhatsApp Business Cloud API (issue 31). The lead's consent to be contacted on WhatsApp (when it was given
-- and which version of the box's text was shown; null = not given), its number in E.164 when it is a valid
-- mobile number, and when it first wrote back to our business number (never what it wrote).
alter table leads add column whatsapp_consent_at timestamptz;
alter table leads add column whatsapp_consent_version text;
alter table leads add column whatsapp_e164 text;
alter table leads add column whatsapp_replied_at timestamptz;
create index leads_whatsapp_e164_idx on leads (whatsapp_e164) where whatsapp_e164 is not null;

-- Two more destinations in the one outbox: `whatsapp` (the lead's template message) and `whatsapp_sales` (one
-- row per sales number, the number in `recipient`). A lead now has one row per destination and recipient.
alter table lead_deliveries drop constraint lead_deliveries_destination_check;
alter table lead_deliveries add constraint lead_deliveries_destination_check
  check (destination in ('webhook', 'pipefy', 'trello', 'email', 'whatsapp', 'whatsapp_sales'));
alter table lead_deliveries add column recipient text;
alter table lead_deliveries drop constraint lead_deliveries_lead_id_destination_key;
create unique index lead_deliveries_lead_destination_recipient_key
  on lead_deliveries (lead_id, destination, coalesce(recipient, ''));

-- What Meta's webhook says of a sent message (found by its id, kept in external_ref): the first time of each
-- status, and the error of a failure. Each is written once, so a webhook Meta retries changes nothing.
alter table lead_deliveries add column wa_sent_at timestamptz;
alter table lead_deliveries add column wa_delivered_at timestamptz;
alter table lead_deliveries add column wa_read_at timestamptz;
alter table lead_deliveries add column wa_failed_at timestamptz;
alter table lead_deliveries add column wa_error text;
create index lead_deliveries_wamid_idx on lead_deliveries (external_ref)
  where destination in ('whatsapp', 'whatsapp_sales') and external_ref is not null;

-- The failing/recovered alerts follow the WhatsApp destinations too.
alter table lead_destination_alerts drop constraint lead_destination_alerts_destination_check;
alter table lead_destination_alerts add constraint lead_destination_alerts_destination_check
  check (destination in ('webhook', 'pipefy', 'trello', 'email', 'whatsapp', 'whatsapp_sales'));
