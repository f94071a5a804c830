// `deno task start`: builds the client when its sources changed since the last build (or stamps the build's
// version when only the commit changed), then serves. Every line it prints is a JSON log line, like the
// server's own.
import { build, needsBuild, stampVersion } from "../build.ts";
import { log } from "../src/core/log.ts";
import { ensureGeoDb } from "./geoip_db.ts";

/** Builds the client when it is older than its sources, saying so (and how long it took) in the log. */
export async function buildIfStale(stale = needsBuild, run = build, stamp = stampVersion): Promise<void> {
  if (!await stale()) {
    await stamp();
    return;
  }
  log.milestone("building the client: its sources changed since the last build");
  const started = performance.now();
  const { files, bytes } = await run();
  log.milestone("client built", { files, bytes, ms: Math.round(performance.now() - started) });
}

if (import.meta.main) {
  await buildIfStale();
  await ensureGeoDb();
  const { configFromEnv, start } = await import("../src/main.ts");
  await start(configFromEnv());
}
