// `deno run -A bench/live_backups.ts [--backups 20] [--browsers 2] [--visitors 2]`: the embedded server under
// a lead and visit load (fresh DATA_DIR in a temporary folder), `deno task db:backup` run against it N times
// in a row while the load goes on, then every backup restored into a fresh folder and checked for each lead
// acknowledged (201) before that backup began. Prints one line per backup and a summary (docs/RELIABILITY.md,
// "Backups under traffic"). Exit code 1 when a backup failed or a restored copy misses an acknowledged lead.
import { parseArgs } from "node:util";
import { join } from "node:path";
import { countAnswers, LOAD_ORIGIN, startLoad } from "../testing/load.ts";
import { startServer } from "../testing/server.ts";
import { restoreAndCheck, takeBackupsUnderLoad } from "../testing/live_backups.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    backups: { type: "string", default: "20" },
    browsers: { type: "string", default: "2" },
    visitors: { type: "string", default: "2" },
  },
});
const count = Number(values.backups);
const tmp = await Deno.makeTempDir({ prefix: "live_backups_" });
const dataDir = join(tmp, "data");
const server = await startServer({
  env: { DATA_DIR: dataDir, PUBLIC_ORIGIN: LOAD_ORIGIN, TRUST_PROXY: "1", LOG_LEVEL: "warn" },
});
let failed = false;
try {
  const load = startLoad(server.url, {
    visitors: Number(values.visitors),
    browsers: Number(values.browsers),
    leadEveryMs: 40,
  });
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const started = Date.now();
  const taken = await takeBackupsUnderLoad(dataDir, join(tmp, "backups"), load, count);
  const loadSeconds = (Date.now() - started) / 1000;
  await load.stop();
  const counts = countAnswers(load.answers);
  const results = await restoreAndCheck(taken, tmp);
  console.log(
    "backup | bytes | command ms | leads acked before | restored | missing | visits acked before | restored",
  );
  for (const [i, r] of results.entries()) {
    console.log(
      `${
        i + 1
      } | ${r.bytes} | ${r.ms} | ${r.leadsBefore.length} | ${r.restoredLeads} | ${r.missing.length} | ` +
        `${r.visitsBefore} | ${r.restoredVisits}`,
    );
  }
  const ok = results.filter((r) => r.missing.length === 0 && r.restoredVisits >= r.visitsBefore).length;
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  console.log(
    `\n${results.length} backups taken under load over ${loadSeconds.toFixed(0)} s (answers ${
      JSON.stringify(counts)
    }); ${ok} of ${results.length} restored with every acknowledged lead and visit; command time p50 ${
      ms[Math.floor(ms.length / 2)]
    } ms, max ${ms.at(-1)} ms; leads acknowledged before the last backup: ${
      results.at(-1)?.leadsBefore.length
    }`,
  );
  failed = ok !== count;
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  const code = await server.stop();
  if (code !== 0) {
    console.error(`server exited ${code}:\n${server.output().slice(-3000)}`);
    failed = true;
  }
  await Deno.remove(tmp, { recursive: true });
}
Deno.exit(failed ? 1 : 0);
