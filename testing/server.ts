// Runs the real server (`deno run -A src/main.ts`) as a child process, for tests that need the whole
// program: start-up, migrations, several instances, another working directory.

const MAIN = new URL("../src/main.ts", import.meta.url).pathname;

/** A TCP port that was free a moment ago. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

export interface ServerProcess {
  url: string;
  pid: number;
  /** Everything the process printed so far (for failure messages). */
  output(): string;
  /** SIGTERM, then waits for the exit; returns the exit code. */
  stop(): Promise<number>;
}

export interface StartOptions {
  /** Extra environment (PORT and HOST are set here). */
  env: Record<string, string>;
  /** Working directory of the child; default a new temporary directory. */
  cwd?: string;
  /** Flags for `deno run` before the script, e.g. the V8 flags `deno task start` uses. */
  denoFlags?: string[];
  /** How long to wait for /healthz; default 90 s (PGlite's first start on a busy machine is slow). */
  timeoutMs?: number;
  /** Starts the server under `ulimit -n` (soft and hard limit on open files), through bash. */
  maxOpenFiles?: number;
  /** The port to listen on; default a free one. */
  port?: number;
}

/** Starts the server and resolves once /healthz answers 200. */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const port = options.port ?? freePort();
  const cwd = options.cwd ?? await Deno.makeTempDir({ prefix: "server_cwd_" });
  const args = ["run", "-A", ...(options.denoFlags ?? []), MAIN];
  // `exec` keeps one process: the pid and SIGTERM are the server's own.
  const [command, commandArgs] = options.maxOpenFiles
    ? ["bash", ["-c", `ulimit -n ${options.maxOpenFiles} && exec "$0" "$@"`, Deno.execPath(), ...args]]
    : [Deno.execPath(), args];
  const child = new Deno.Command(command, {
    args: commandArgs,
    cwd,
    env: { ...options.env, PORT: String(port), HOST: "127.0.0.1", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  const decoder = new TextDecoder();
  const drain = (stream: ReadableStream<Uint8Array>) =>
    stream.pipeTo(new WritableStream({ write: (chunk) => void (text += decoder.decode(chunk)) }));
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });
  const url = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    url,
    pid: child.pid,
    output: () => text,
    async stop() {
      if (!exited) child.kill("SIGTERM");
      const { code } = await status;
      await drained;
      return code;
    },
  };
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  // Only this child's own answer counts: the free port can be taken by another test's server between
  // freePort() and the child's bind, and that server would answer /healthz (seen once in CI: the test then
  // stopped a child still migrating, which died of the SIGTERM). The child says where it listens.
  const listening = `listening on ${url}`;
  while (Date.now() < deadline) {
    if (exited) break;
    if (text.includes(listening)) {
      try {
        const res = await fetch(`${url}/healthz`);
        await res.body?.cancel();
        if (res.ok) return server;
      } catch {
        // not answering yet
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await server.stop().catch(() => {});
  // Another process took the port first: start again on another one.
  if (options.port === undefined && /AddrInUse|address already in use/i.test(text)) {
    return startServer(options);
  }
  throw new Error(`the server did not start:\n${text}`);
}
