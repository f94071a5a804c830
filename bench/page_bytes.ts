// What one public page answer costs the server: bytes on the wire and CPU per response, gzip and plain, for
// the pages a visitor lands on, through the real app and the built client (run `deno task build` first).
// Prints numbers only (docs/PERFORMANCE.md).
//   deno run -A bench/page_bytes.ts [responses per page, default 3000]
import { cpuUsage } from "node:process";
import { testApp } from "../testing/app.ts";
import { loadAssets } from "../src/server/assets.ts";

const N = Number(Deno.args[0] ?? 3000);
const PAGES = ["/pt-br", "/en/clientes", "/es/pipefy-whatsapp-integracao", "/pt-br/admin"];

const t = await testApp("pglite", { assets: await loadAssets() });
try {
  for (const path of PAGES) {
    for (const encoding of ["gzip", "identity"]) {
      const ask = async () => {
        const res = await t.request(path, { headers: { "accept-encoding": encoding } });
        return (await res.arrayBuffer()).byteLength;
      };
      for (let i = 0; i < 200; i++) await ask(); // warm: templates rendered, JIT settled
      const cpu0 = cpuUsage();
      const wall0 = performance.now();
      let bytes = 0;
      for (let i = 0; i < N; i++) bytes = await ask();
      const wall = performance.now() - wall0;
      const cpu = cpuUsage(cpu0);
      console.log(
        `${path.padEnd(32)} ${encoding.padEnd(8)} ${String(bytes).padStart(7)} B  ` +
          `${((cpu.user + cpu.system) / N).toFixed(1).padStart(6)} µs CPU/response  ` +
          `${(wall * 1000 / N).toFixed(1).padStart(6)} µs wall/response`,
      );
    }
  }
} finally {
  await t.db.close();
}
