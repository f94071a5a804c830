// One server for bench/guard.ts: `deno run -A bench/guard_server.ts plain|guard|GUARD_MODULE PORT` answers
// every request with a small body, on Deno.serve alone or behind a connection guard (this checkout's, or
// the module named, e.g. an older guard written out by bench/guard.ts). Prints "ready" once listening.
const [mode, port] = [Deno.args[0], Number(Deno.args[1])];
const handler = () => new Response("a small answer, about the size of an API acknowledgement\n");
if (mode === "plain") {
  Deno.serve({ hostname: "127.0.0.1", port, onListen: () => console.log("ready") }, handler);
} else {
  const module = mode === "guard"
    ? "../src/server/conn_guard.ts"
    : new URL(mode, `file://${Deno.cwd()}/`).href;
  const { serveGuarded } = await import(module);
  await serveGuarded({ hostname: "127.0.0.1", port, handler, onListen: () => console.log("ready") });
}
