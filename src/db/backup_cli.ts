// `deno task db:backup [--out DIR]` and `deno task db:restore FILE [--force]` for the embedded database in
// DATA_DIR. Stop the server first. With DATABASE_URL set, use pg_dump / pg_restore (README).
import { parseArgs } from "node:util";
import { loadConfig } from "../config.ts";
import { BackupError, backupPglite, restorePglite } from "./backup.ts";

const { positionals, values } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: { out: { type: "string", default: "backups" }, force: { type: "boolean", default: false } },
});
const [command, file] = positionals;
const config = loadConfig(Deno.env.toObject());

function fail(message: string, code = 1): never {
  console.error(message);
  Deno.exit(code);
}

if (config.DATABASE_URL) {
  fail("DATABASE_URL is set: back up PostgreSQL with pg_dump and restore with pg_restore (see the README).");
}
try {
  if (command === "backup") {
    console.log(`backup written: ${await backupPglite(config.DATA_DIR, values.out)}`);
  } else if (command === "restore" && file) {
    const movedTo = await restorePglite(file, config.DATA_DIR, { force: values.force });
    if (movedTo) console.log(`previous database moved to ${movedTo}`);
    console.log(`restored ${file} into ${config.DATA_DIR}`);
  } else {
    fail("usage: backup_cli.ts backup [--out DIR] | restore FILE [--force]", 2);
  }
} catch (error) {
  if (error instanceof BackupError) fail(error.message);
  throw error;
}
