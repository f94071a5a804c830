// A connection guard alone in a process of its own, for tests that need it to run out of descriptors:
// `bash -c "ulimit -n N && deno run -A testing/guard_child.ts BUDGET"` serves 200 "ok" behind a guard whose
// budget is BUDGET descriptors, whatever the limit really leaves. It prints its port on the first line, and
// its stats as JSON when its stdin closes, then exits.
import { serveGuarded } from "../src/server/conn_guard.ts";

const guard = await serveGuarded({
  hostname: "127.0.0.1",
  port: 0,
  limits: { fdBudget: Number(Deno.args[0]), idleTimeoutMs: 30_000 },
  handler: () => new Response("ok"),
});
console.log(guard.addr.port);
await Deno.stdin.readable.pipeTo(new WritableStream());
console.log(JSON.stringify(guard.stats()));
await guard.shutdown();
Deno.exit(0);
