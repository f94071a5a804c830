-- Rate-limit counters are written on every tracked event (one upsert per visitor and minute) and are worth
-- nothing after a crash: a window lasts a minute or ten. An unlogged table skips the write-ahead log for
-- them, so counting costs the database less work per event. After a crash PostgreSQL empties it, which
-- only gives every client a fresh window; on a replica it reads as empty, and nothing reads it there.
alter table rate_limits set unlogged;
