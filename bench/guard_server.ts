// One server for bench/guard.ts: `deno run -A bench/guard_server.ts plain|bare|guard|GUARD_MODULE PORT`
// answers every request with a small body, on Deno.serve alone, on the bare mechanism the guard is built on,
// or behind a connection guard (this checkout's, or the module named, e.g. an older guard written out by
// bench/guard.ts). Prints "ready" once listening.
//
// "bare" accepts connections itself and hands each to Deno's server for one connection
// (`serveHttpOnConnection`, as src/server/conn_guard.ts does) with no limit, clock or bookkeeping: what any
// guard that owns the accept loop and lets Deno speak HTTP costs at the least.
const [mode, port] = [Deno.args[0], Number(Deno.args[1])];
const handler = () => new Response("a small answer, about the size of an API acknowledgement\n");
if (mode === "plain") {
  Deno.serve({ hostname: "127.0.0.1", port, onListen: () => console.log("ready") }, handler);
} else if (mode === "bare") {
  const deno = Deno as unknown as { internal: symbol } & Record<symbol, Record<string, CallableFunction>>;
  const serveOnConnection = deno[deno.internal].serveHttpOnConnection;
  const signal = { addEventListener() {} }; // never closed: the bench ends the process
  const onError = () => new Response("error", { status: 500 });
  const listener = Deno.listen({ hostname: "127.0.0.1", port, tcpBacklog: 4096 });
  console.log("ready");
  for await (const conn of listener) serveOnConnection(conn, signal, handler, onError, () => {});
} else {
  const module = mode === "guard"
    ? "../src/server/conn_guard.ts"
    : new URL(mode, `file://${Deno.cwd()}/`).href;
  const { serveGuarded } = await import(module);
  await serveGuarded({ hostname: "127.0.0.1", port, handler, onListen: () => console.log("ready") });
}
