-- 00011 was edited twice after databases had applied it, so its leads index depends on which text ran:
--   first text:  leads_submitted_at_idx on (submitted_at) (from 00001), nothing more;
--   second text: that index plus leads_submitted_channel_idx on (submitted_at, last_channel);
--   final text:  leads_submitted_at_idx on (submitted_at) include (last_channel), and no other.
-- The runner could not tell them apart (it recorded names only), and from 00012 on it records this build's
-- 00011 checksum for all of them. Rebuilding the index here gives every database the final text's index,
-- whichever text it ran: on a database that already has it, this rebuilds one index on the leads table.
drop index if exists leads_submitted_channel_idx;
drop index if exists leads_submitted_at_idx;
create index leads_submitted_at_idx on leads (submitted_at) include (last_channel);
