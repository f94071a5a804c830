// The child process of `verifyBackupFile` (backup.ts): `deno run verify_child.ts FILE` opens the backup in an
// in-memory PGlite and prints its row counts as JSON (exit 0), or why it does not open (exit 1). The server's
// scheduled backups are verified here, so the ~160 MB the verification takes and the seconds of
// WebAssembly it runs stay out of the process serving the site.
import { verifyBackup } from "./backup.ts";

try {
  console.log(JSON.stringify(await verifyBackup(await Deno.readFile(Deno.args[0]))));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  Deno.exit(1);
}
