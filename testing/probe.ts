// A fresh client: GET on a new connection (no pooling) with a deadline. Run as a script
// (`deno run -A testing/probe.ts URL`), it probes URL every 200 ms until its stdin closes and prints one
// JSON line per probe, so a test can probe from outside its own busy process.

export interface Probe {
  status: number;
  ms: number;
  error?: string;
}

/** GET `url` on a new connection; status 0 with the error when it fails or takes longer than `timeoutMs`. */
export async function freshGet(url: string, timeoutMs: number): Promise<Probe> {
  const client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
  const started = performance.now();
  try {
    const res = await fetch(url, { client, signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return { status: res.status, ms: Math.round(performance.now() - started) };
  } catch (error) {
    const cause = (error as Error).cause ? ` (${(error as Error).cause})` : "";
    return {
      status: 0,
      ms: Math.round(performance.now() - started),
      error: `${error}${cause}`.slice(0, 300),
    };
  } finally {
    client.close();
  }
}

if (import.meta.main) {
  const url = Deno.args[0];
  let running = true;
  Deno.stdin.readable.pipeTo(new WritableStream()).finally(() => running = false);
  while (running) {
    console.log(JSON.stringify(await freshGet(url, 1_000)));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  Deno.exit(0);
}
