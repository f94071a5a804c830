// Fault: the embedded database's DATA_DIR fills up under a lead and tracking load. The real server runs as a
// child process with DATA_DIR on a small tmpfs mounted for the test (root only: the test skips loudly
// elsewhere); another file takes the space. The server must answer writes 503 at once (never hang, never 500),
// keep serving pages and reads, say why in its log and on /readyz, resume by itself when the space is back,
// and lose or corrupt nothing. The read-only case is src/main_storage_readonly_test.ts (a file of its own, so
// `deno task test:faults` runs the two side by side).
import assert from "node:assert/strict";
import { countAnswers, drainOutbox, send, startLoad } from "../testing/load.ts";
import { startServer } from "../testing/server.ts";
import {
  canMount,
  dataDirOnTmpfs,
  freeMb,
  lead,
  readyReason,
  serverEnv,
  sh,
  signIn,
  sleep,
  status,
  stored,
} from "../testing/storage_faults.ts";

const mountable = await canMount();

Deno.test({
  name: "faults: PGlite's DATA_DIR fills up under load — writes 503 at once, pages and reads go on, " +
    "writes resume when space is freed, every lead stored once, nothing corrupted",
  ignore: !mountable,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const { disk, dataDir } = await dataDirOnTmpfs();
    const filler = `${disk.dir}/filler`;
    let server = await startServer({ env: serverEnv(dataDir) });
    try {
      const cookie = await signIn(server.url);
      // About 80 visits and 40 leads a second: enough to see every answer while the disk is full (back to back,
      // the visitors took a core from the tests running beside this one, scripts/test.ts).
      const load = startLoad(server.url, { visitors: 4, visitEveryMs: 50, browsers: 4, leadEveryMs: 100 });
      await sleep(1_000);

      // Another program takes the disk down to 20 MB free, below the 64 MB reserve.
      await sh("fallocate", "-l", `${Math.floor(freeMb(disk.dir) - 20)}M`, filler);
      const fullAt = Date.now();
      await sleep(1_500); // the guard looks again at most once a second
      const duringFrom = Date.now();
      const leadWhileFull = await send(server.url, "/api/leads", lead("while-full"), "lead", "while-full");
      const reasonWhileFull = await readyReason(server.url);
      const pageWhileFull = await status(`${server.url}/pt-br`);
      const leadsReadWhileFull = await status(`${server.url}/api/leads?page=1`, { headers: { cookie } });
      await sleep(2_000);
      const duringUntil = Date.now();

      await Deno.remove(filler);
      const freedAt = Date.now();
      let readyAt = 0;
      while (!readyAt && Date.now() - freedAt < 10_000) {
        if (await readyReason(server.url) === "ready") readyAt = Date.now();
        else await sleep(20);
      }
      await sleep(1_000); // the load goes on after the space is back, then the outboxes are sent again
      await load.stop();
      await drainOutbox(server.url, load);

      const during = load.answers.filter((a) => a.at >= duringFrom && a.at + a.ms <= duringUntil);
      const acked = load.answers.filter((a) => a.kind === "visit" && a.status === 202).length;
      const slowest = Math.max(...during.map((a) => a.ms));
      const counts = countAnswers(load.answers);
      const output = server.output();
      assert.equal(await server.stop(), 0, output.slice(-3000));
      const after = await stored(dataDir);
      console.log(
        `DATA_DIR full: ${load.answers.length} requests, answers ${JSON.stringify(counts)}; while full ` +
          `(${((duringUntil - fullAt) / 1000).toFixed(1)} s): ${during.length} answers, all ${
            [...new Set(during.map((a) => a.status))].join("/")
          }, slowest ${slowest} ms; /readyz "${reasonWhileFull}", page ${pageWhileFull}, leads list ` +
          `${leadsReadWhileFull}; ready ${readyAt - freedAt} ms after the space was freed; leads created ` +
          `${load.created.size}, stored ${after.leads.length}, stored twice ${
            after.leads.filter((l) => l.n > 1).length
          }; visits acknowledged ${acked}, stored ${after.visits}`,
      );

      assert.ok(during.length > 20, `too few requests while the disk was full: ${during.length}`);
      assert.deepEqual(
        [...new Set(during.map((a) => a.status))],
        [503],
        JSON.stringify(countAnswers(during)),
      );
      assert.ok(slowest < 1_000, `an answer took ${slowest} ms while the disk was full`);
      assert.equal(leadWhileFull.status, 503);
      assert.equal(reasonWhileFull, "storage_unavailable");
      assert.equal(pageWhileFull, 200, "pages are served while the disk is full");
      assert.equal(leadsReadWhileFull, 200, "the dashboard reads while the disk is full");
      assert.ok(readyAt > 0 && readyAt - freedAt < 3_000, "writes did not resume within 3 s of freeing");
      assert.ok(!load.answers.some((a) => a.status >= 500 && a.status !== 503), JSON.stringify(counts));
      assert.match(output, /below the 64 MB the embedded database keeps in reserve/);
      assert.doesNotMatch(output, /unhandled/);

      // Every lead the browsers made is stored exactly once with what was sent; none was stored while full.
      assert.equal(load.outbox.size, 0);
      const byKey = new Map(after.leads.map((l) => [l.key, l]));
      assert.equal(byKey.has("while-full"), false);
      for (const [key, sent] of load.created) {
        assert.equal(byKey.get(key)?.n, 1, `lead ${key}`);
        assert.equal(byKey.get(key)?.email, sent.email);
      }
      assert.equal(after.leads.length, load.created.size);
      assert.ok(after.visits >= acked, `visits ${after.visits}, acknowledged ${acked}`);

      // The database opens again as it was and takes writes.
      server = await startServer({ env: serverEnv(dataDir) });
      assert.equal(await readyReason(server.url), "ready");
      assert.equal((await send(server.url, "/api/leads", lead("after"), "lead", "after")).status, 201);
    } finally {
      await server.stop();
      await disk.unmount();
    }
  },
});
