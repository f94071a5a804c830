// `deno task db:migrate`: applies pending migrations to the configured database and exits.
import { loadConfig } from "../config.ts";
import { type Db, openDb } from "./client.ts";
import { DataDirBusy } from "./data_dir_lock.ts";
import { migrate } from "./migrate.ts";

const config = loadConfig(Deno.env.toObject());
let db: Db;
try {
  db = await openDb({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    minFreeBytes: config.DATA_DIR_MIN_FREE_MB * 1024 * 1024,
    owner: "db:migrate",
  });
} catch (error) {
  if (!(error instanceof DataDirBusy)) throw error;
  console.error(error.message);
  Deno.exit(1);
}
try {
  const applied = await migrate(db);
  console.log(applied.length ? `applied: ${applied.join(", ")}` : "database is up to date");
} finally {
  await db.close();
}
