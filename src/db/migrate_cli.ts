// `deno task db:migrate`: applies pending migrations to the configured database and exits.
import { loadConfig } from "../config.ts";
import { openDb } from "./client.ts";
import { migrate } from "./migrate.ts";

const config = loadConfig(Deno.env.toObject());
const db = await openDb({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  minFreeBytes: config.DATA_DIR_MIN_FREE_MB * 1024 * 1024,
});
try {
  const applied = await migrate(db);
  console.log(applied.length ? `applied: ${applied.join(", ")}` : "database is up to date");
} finally {
  await db.close();
}
