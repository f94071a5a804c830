// Bytes no fetch() client would send, written straight to the real server's socket: raw invalid UTF-8 in the
// path and in header values, a header too large, a lying or double Content-Length, Content-Length together
// with chunked encoding (request smuggling), a bare LF. Whoever answers (Deno's HTTP layer or the app), the
// answer is a 4xx or a normal page, never a 5xx, and no lead is stored.
import assert from "node:assert/strict";
import { testApp } from "../../testing/app.ts";
import { dbKinds } from "../../testing/db.ts";

const enc = new TextEncoder();
const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => typeof p === "string" ? [...enc.encode(p)] : p));

const LEAD = JSON.stringify({ name: "Raw", email: "raw@example.com", whatsapp: "11999990000", plan: "Pro" });
const UA = "User-Agent: Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36\r\n";

/** [name, request bytes (the port is filled in), statuses accepted]. */
const RAW: [string, (host: string) => Uint8Array, number[]][] = [
  [
    "invalid UTF-8 bytes in the path",
    (h) => bytes("GET /pt-br/", [0xff, 0xfe, 0xc0, 0xaf], ` HTTP/1.1\r\nHost: ${h}\r\n\r\n`),
    [
      400,
      404,
    ],
  ],
  [
    "invalid UTF-8 in Accept-Language",
    (h) => bytes(`GET / HTTP/1.1\r\nHost: ${h}\r\nAccept-Language: `, [0xff, 0xc3], "\r\n\r\n"),
    [
      302,
      400,
    ],
  ],
  [
    "a 100 KB header",
    (h) => bytes(`GET /pt-br HTTP/1.1\r\nHost: ${h}\r\nX-Big: ${"a".repeat(100_000)}\r\n\r\n`),
    [400, 431],
  ],
  [
    "a non-numeric Content-Length",
    (h) =>
      bytes(
        `POST /api/leads HTTP/1.1\r\nHost: ${h}\r\nOrigin: http://${h}\r\n${UA}Content-Type: application/json\r\nContent-Length: abc\r\n\r\n${LEAD}`,
      ),
    [400],
  ],
  [
    "two different Content-Lengths",
    (h) =>
      bytes(
        `POST /api/leads HTTP/1.1\r\nHost: ${h}\r\nOrigin: http://${h}\r\n${UA}Content-Type: application/json\r\nContent-Length: 5\r\nContent-Length: ${LEAD.length}\r\n\r\n${LEAD}`,
      ),
    [400],
  ],
  [
    "Content-Length with chunked encoding (smuggling)",
    (h) =>
      bytes(
        `POST /api/leads HTTP/1.1\r\nHost: ${h}\r\nOrigin: http://${h}\r\n${UA}Content-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /api/leads HTTP/1.1\r\nHost: ${h}\r\n\r\n`,
      ),
    [400, 415],
  ],
  ["a bare LF request", (h) => bytes(`GET /pt-br HTTP/1.1\nHost: ${h}\n\n`), [200, 400]],
  [
    "a NUL byte in a header value",
    (h) => bytes(`GET /pt-br HTTP/1.1\r\nHost: ${h}\r\nX-Nul: a`, [0], "b\r\n\r\n"),
    [200, 400],
  ],
];

/** Sends `request` on a new connection and returns the status of the first answer (0 if the server hung up). */
async function statusOf(port: number, request: Uint8Array): Promise<number> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(request).catch(() => {});
    const buf = new Uint8Array(4096);
    let text = "";
    const deadline = Date.now() + 5000;
    while (!/\r?\n/.test(text) && Date.now() < deadline) {
      const n = await conn.read(buf).catch(() => null);
      if (!n) break;
      text += new TextDecoder().decode(buf.subarray(0, n));
    }
    return Number(text.match(/^HTTP\/1\.[01] (\d{3})/)?.[1] ?? 0);
  } finally {
    conn.close();
  }
}

for (const kind of dbKinds()) {
  Deno.test({
    name: `${kind}: hostile input: malformed HTTP on the socket never gets a 5xx`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const t = await testApp(kind);
      const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, t.app.fetch);
      const host = `127.0.0.1:${server.addr.port}`;
      try {
        const seen: string[] = [];
        for (const [name, request, expected] of RAW) {
          const status = await statusOf(server.addr.port, request(host));
          seen.push(`${name}: ${status}`);
          assert.ok(
            status === 0 || expected.includes(status),
            `${name}: ${status}, expected ${expected.join("/")}`,
          );
        }
        const [{ n }] = await t.db.query<{ n: number }>("select count(*)::int as n from leads");
        assert.equal(n, 0, "no lead stored");
        console.log(`raw HTTP (${kind}): ${RAW.length} cases, 0 5xx; ${seen.join("; ")}`);
      } finally {
        await server.shutdown();
      }
    },
  });
}
