// What a test process pays to start its PGlite from the migrated template (testing/db_template.ts): reading the
// archive and opening a database from it, in CPU and page faults, for the template the suite uses and for one
// made the former way (a new database as PGlite makes it, migrated and checkpointed: 42.7 MB with its 16-MB
// log segment and the template0 and template1 databases). Each sample is a child process of its own, the two
// kinds alternated, as a test process starts. Prints numbers only.
//   deno run -A bench/test_template.ts [--runs N]
import process from "node:process";
import { parseArgs } from "node:util";
import { openDb } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { createPglite, unpackBackup } from "../src/db/pglite.ts";
import { memoryTemplate } from "../testing/db_template.ts";

if (Deno.args[0] === "--child") {
  // One sample: read the archive, open it, run a query; CPU time and minor page faults of this process.
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const faults = () => process.resourceUsage().minorPageFault;
  const [cpu0, faults0] = [cpu(), faults()];
  const blob = new Blob([await Deno.readFile(Deno.args[1])], { type: "application/x-tar" });
  const pg = await createPglite({ loadDataDir: blob });
  await pg.query("select count(*) from schema_migrations");
  console.log(JSON.stringify({ mb: blob.size / 1e6, cpuMs: cpu() - cpu0, faults: faults() - faults0 }));
  await pg.close();
  Deno.exit(0);
}

const { values } = parseArgs({ args: Deno.args, options: { runs: { type: "string", default: "4" } } });
const runs = Number(values.runs);
const dir = await Deno.makeTempDir({ prefix: "test_template_" });
try {
  const current = `${dir}/current.tar`;
  await Deno.writeFile(current, new Uint8Array(await (await memoryTemplate()).arrayBuffer()));
  const former = `${dir}/former.tar`;
  const db = await openDb({});
  try {
    await migrate(db);
    await db.exec("checkpoint");
    await Deno.writeFile(
      former,
      new Uint8Array(await (await unpackBackup(await db.dumpDataDir!())).arrayBuffer()),
    );
  } finally {
    await db.close();
  }
  type Sample = { mb: number; cpuMs: number; faults: number };
  const sample = async (path: string): Promise<Sample> => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL(import.meta.url).pathname, "--child", path],
      stderr: "inherit",
    }).output();
    if (!out.success) throw new Error(`the sample of ${path} failed`);
    return JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!);
  };
  const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  console.log("template     MB   read + open: CPU ms   page faults   load");
  for (let i = 0; i < runs; i++) {
    for (const [name, path] of [["former", former], ["current", current]]) {
      const s = await sample(path);
      console.log(
        `${name.padEnd(8)} ${s.mb.toFixed(1).padStart(6)} ${s.cpuMs.toFixed(0).padStart(21)} ${
          String(s.faults).padStart(13)
        }   ${load()}`,
      );
    }
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}
