// The visitor key's HMAC: the hand-written SHA-256 in src/core/hmac_sha256.ts against node:crypto's
// createHmac, as the visitor key uses them (one HMAC of a client network string under a monthly key, hex,
// first 16 bytes). Prints µs per HMAC for each, several rounds interleaved so both see the same load, and
// the machine's load average beside each round.
//   deno run -A bench/hmac.ts [rounds] [iterations]
import { createHmac } from "node:crypto";
import { hmacKey, hmacSha256Hex } from "../src/core/hmac_sha256.ts";

const rounds = Number(Deno.args[0] ?? 7);
const iterations = Number(Deno.args[1] ?? 200_000);
const secret = crypto.getRandomValues(new Uint8Array(32));
const key = hmacKey(secret);
const messages = Array.from({ length: 1024 }, (_, i) => `201.${i % 256}.${(i * 7) % 256}.${(i * 13) % 256}`);

const ours = (m: string) => hmacSha256Hex(key, m, 16);
const node = (m: string) => createHmac("sha256", secret).update(m).digest("hex").slice(0, 32);

// Same answers first: a bench of two different functions measures nothing.
for (const m of messages) if (ours(m) !== node(m)) throw new Error(`mismatch on ${m}`);

function time(fn: (m: string) => string): number {
  let sink = 0;
  const start = performance.now();
  for (let i = 0; i < iterations; i++) sink += fn(messages[i & 1023]).length;
  const us = ((performance.now() - start) * 1000) / iterations;
  if (sink === 0) throw new Error("unreachable");
  return us;
}

for (let i = 0; i < 2; i++) time(ours), time(node); // warm-up (JIT)
console.log("round  load(1m)  hand-written µs  node:crypto µs  ratio");
const ratios: number[] = [];
for (let r = 1; r <= rounds; r++) {
  const load = Deno.loadavg()[0].toFixed(2);
  const a = time(ours), b = time(node);
  ratios.push(b / a);
  console.log(
    `${String(r).padStart(5)}  ${load.padStart(8)}  ${a.toFixed(2).padStart(15)}  ${
      b.toFixed(2).padStart(14)
    }  ${(b / a).toFixed(2).padStart(5)}`,
  );
}
ratios.sort((x, y) => x - y);
console.log(`median ratio node:crypto / hand-written: ${ratios[Math.floor(ratios.length / 2)].toFixed(2)}`);
