-- Each applied migration's SHA-256 (of its file, CRLF read as LF), so that a file edited after it was applied
-- is noticed: the runner (src/db/migrate.ts) refuses to start instead of reporting "up to date" on a schema
-- that differs from what the files say. Rows applied before this column existed are filled from the files of
-- the first build that has it; migrations applied by an older build afterwards are filled the same way.
alter table schema_migrations add column checksum text;
