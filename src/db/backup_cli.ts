// `deno task db:backup [--out DIR]` and `deno task db:restore FILE [--force]` for the embedded database in
// DATA_DIR. A backup works while the server runs (it asks the server for the copy) and is verified before
// success is reported; a restore needs the server stopped. With DATABASE_URL set, use pg_dump / pg_restore
// (README).
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../config.ts";
import { BackupError, backupPglite, describeCounts, restorePglite } from "./backup.ts";
import { DataDirBusy } from "./data_dir_lock.ts";

const { positionals, values } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: { out: { type: "string", default: "backups" }, force: { type: "boolean", default: false } },
});
const [command, file] = positionals;

function fail(message: string, code = 1): never {
  console.error(message);
  Deno.exit(code);
}

let config;
try {
  config = loadConfig(Deno.env.toObject());
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}
if (config.DATABASE_URL) {
  fail("DATABASE_URL is set: back up PostgreSQL with pg_dump and restore with pg_restore (see the README).");
}
try {
  if (command === "backup") {
    const written = await backupPglite(config.DATA_DIR, values.out);
    console.log(`backup written: ${written.path} (${written.bytes} bytes, taken by ${written.from})`);
    console.log(`verified: it opens; rows: ${describeCounts(written.counts)}`);
  } else if (command === "restore" && file) {
    const restored = await restorePglite(file, config.DATA_DIR, { force: values.force });
    if (restored.movedTo) console.log(`previous database moved to ${restored.movedTo}`);
    console.log(`restored ${file} into ${config.DATA_DIR}; rows: ${describeCounts(restored.counts)}`);
  } else {
    fail("usage: backup_cli.ts backup [--out DIR] | restore FILE [--force]", 2);
  }
} catch (error) {
  if (error instanceof BackupError || error instanceof DataDirBusy) fail(error.message);
  throw error;
}
