// The child process of `initdbInChild` (pglite.ts): `deno run initdb_child.ts DIR` creates the embedded
// database in DIR, applies the migrations and shuts it down cleanly. The memory both take (initdb's ~330 MB,
// the migrations' catalog work) goes back to the system when it exits, not to the server that starts next.
import { openDb } from "./client.ts";
import { migrate } from "./migrate.ts";

const db = await openDb({ dataDir: Deno.args[0], initdbHere: true });
try {
  await migrate(db);
} finally {
  await db.close();
}
