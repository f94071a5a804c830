// The public listener of the single binary facing the internet (behind a proxy, CONNECTION_GUARD=0 serves
// plainly). Deno.serve has no header, body or idle timeouts, holds any number of connections and stops
// accepting when descriptors run out. This guard accepts the connections itself and reads each request head
// that opens a relay (HTTP/1.0 or HTTP/1.1 only: anything else, the HTTP/2 preface among them, gets 400 or
// 505 and is closed), then relays the connection to a Deno.serve on a loopback port, which serves only the
// guard's own relays (checked by source address and port) and hands the handler the client's address.
//
// Clocks, checked every 250 ms: a request head must end within `headersTimeoutMs` of its first byte; a
// request's answer must be written within `requestTimeoutMs` of its handler's call (each its own clock); a
// connection with nothing to do is closed `keepAliveMs` after it opened or after its last answer byte left.
// Memory: a connection waiting for bytes holds no buffer (16 KiB pooled chunks while bytes pass), and a relay
// quiet for `parkAfterMs` is parked: its inner half is closed, and the next request head opens a new one.
//
// Descriptors: 1 per connection until relayed (or once parked), 3 while relayed, within a budget below the
// soft limit. When a new connection or relay needs room, connections are closed in this order, oldest first:
//   1. connections that began a request head to open a relay and have not finished it;
//   2. relayed connections not answered yet (a request still in progress, a body still dripping);
//   3. quiet connections: answered and idle between requests, or new and silent so far (a fresh
//      client's request may be waiting unread: the newest go last).
// An answered connection with a request in progress is never closed to make room; with no room left, 503.
import { log } from "../core/log.ts";

export interface GuardLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveMs: number;
  /** The first request head's size limit (431 beyond); later ones are Deno.serve's. */
  maxHeaderBytes: number;
  /** A relay quiet this long after its last answer is parked (see the header comment). */
  parkAfterMs: number;
  fdBudget: number;
}

export const DEFAULT_LIMITS: Omit<GuardLimits, "fdBudget"> = {
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 10_000,
  keepAliveMs: 5_000,
  maxHeaderBytes: 16 * 1024,
  parkAfterMs: 1_000,
};

/** The fewest descriptors client connections are ever given; those kept for the database, files and logs. */
const MIN_BUDGET = 64;
const RESERVED_FDS = 160;
const CHUNK = 16 * 1024;

type Counter = "accepted" | "evicted" | "refused" | "timedOut";
export type GuardStats = Record<Counter | "open" | "relayed" | "fdsInUse" | "fdBudget", number>;

export interface GuardedServer {
  addr: Deno.NetAddr;
  /** Settles when the listener stopped: resolves after shutdown(), rejects if accepting failed for good. */
  finished: Promise<void>;
  /** Stops accepting, lets requests in flight finish (Deno.serve's graceful shutdown), then closes the rest. */
  shutdown(): Promise<void>;
  stats(): GuardStats;
}

export interface GuardOptions {
  hostname: string;
  port: number;
  handler: (request: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => Response | Promise<Response>;
  onListen?: (addr: Deno.NetAddr) => void;
  limits?: Partial<GuardLimits>;
}

/** What the soft descriptor limit (Deno raises it to the hard one) leaves after those open now and a reserve. */
export async function defaultBudget(): Promise<number> {
  const soft = Number(/^Max open files\s+(\d+)/m.exec(await Deno.readTextFile("/proc/self/limits"))?.[1]);
  let open = 0;
  for await (const _ of Deno.readDir("/proc/self/fd")) open++;
  return soft > 0 ? Math.max(MIN_BUDGET, soft - open - RESERVED_FDS) : 512;
}

/** The answer to a first request line: null for HTTP/1.0 and HTTP/1.1, 505 for another version, else 400. */
export function refusalOf(line: string): string | null {
  if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+ [\x21-\x7e\x80-\xff]+ HTTP\/1\.[01]$/.test(line)) return null;
  if (/^[A-Za-z]+ \S+ HTTP\/\d(\.\d)?$/.test(line)) return "505 HTTP Version Not Supported";
  return "400 Bad Request";
}

const latin1 = new TextDecoder("latin1");
const encoder = new TextEncoder();
const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));
const outOfDescriptors = (error: unknown) => /too many open files|os error 2[34]\b/i.test(String(error));

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let done = 0; done < bytes.length;) done += await conn.write(bytes.subarray(done));
}

class Client {
  upstream: Deno.TcpConn | null = null;
  closed = false;
  /** Where it is closed from when room is needed (see the header), or null: never. */
  group: Set<Client> | null = null;
  inRequest = 0;
  requestAt = 0;
  /** When the first byte of a request head not handled yet arrived (0: none). */
  firstByte = 0;
  lastOut = 0;
  answered = 0;
  /** Set while the inner half of a quiet relay is being closed (see `parkAfterMs`). */
  parked: PromiseWithResolvers<void> | null = null;
  constructor(readonly conn: Deno.TcpConn, public since: number, public fds = 1) {}
}

export async function serveGuarded(options: GuardOptions): Promise<GuardedServer> {
  const limits = { ...DEFAULT_LIMITS, fdBudget: await defaultBudget().catch(() => 512), ...options.limits };
  const all = new Set<Client>(), heads = new Set<Client>(), unanswered = new Set<Client>();
  const quiet = new Set<Client>();
  const byPort = new Map<number, Client>();
  const stats: Record<Counter, number> = { accepted: 0, evicted: 0, refused: 0, timedOut: 0 };
  const pool: Uint8Array[] = [];
  let fds = 0, lastWarning = 0, stopping = false;
  /** Cut below what is in use when the process runs out of descriptors all the same; 8 back a sweep. */
  let budget = limits.fdBudget;

  const counts = () => ({ open: all.size, relayed: byPort.size, fdsInUse: fds, fdBudget: budget, ...stats });

  function move(c: Client, group: Set<Client> | null): void {
    c.group?.delete(c);
    (c.group = group)?.add(c);
  }

  const inner = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request, info) => {
    const c = byPort.get(info.remoteAddr.port);
    // Only the guard's own relays: another local process connecting here would pose as a client.
    if (!c || info.remoteAddr.hostname !== (c.upstream!.localAddr as Deno.NetAddr).hostname) {
      return new Response(null, { status: 421, headers: { connection: "close" } });
    }
    c.inRequest++;
    c.requestAt = Date.now();
    c.firstByte = 0;
    if (c.answered) move(c, null);
    // Answered once its answer is written (or the client gone): then a park cannot cut it.
    const answered = () => {
      c.answered++;
      c.since = Date.now();
      if (--c.inRequest === 0 && !c.closed) move(c, quiet);
    };
    info.completed.then(answered, answered);
    return options.handler(request, {
      remoteAddr: c.conn.remoteAddr as Deno.NetAddr,
      completed: info.completed,
    });
  });
  const innerAddr = { hostname: "127.0.0.1", port: inner.addr.port };

  function close(c: Client, reason?: Counter): false {
    if (c.closed) return false;
    c.closed = true;
    if (reason) stats[reason]++;
    all.delete(c);
    move(c, null);
    fds -= c.fds;
    if (c.upstream) byPort.delete((c.upstream.localAddr as Deno.NetAddr).port);
    c.conn.close(); // only here, once
    c.upstream?.close();
    c.parked?.resolve();
    return false;
  }

  /** Closes connections in the order of the header comment until `need` more descriptors fit. */
  function makeRoom(need: number, keep?: Client): boolean {
    if (fds + need <= budget) return true;
    if (Date.now() - lastWarning > 10_000) {
      lastWarning = Date.now();
      log.warn("connection limit: closing the connections that have proven least", counts());
    }
    for (const group of [heads, unanswered, quiet]) {
      for (const c of group) {
        if (fds + need <= budget) return true;
        if (c !== keep) close(c, "evicted");
      }
    }
    return fds + need <= budget;
  }

  /** Out of descriptors within the budget (the inner server closes its side of a relay late): cut it. */
  function lackingDescriptors(where: string, keep?: Client): void {
    budget = Math.max(MIN_BUDGET, Math.min(budget, fds - 64));
    lastWarning = 0;
    log.warn(`connection limit: out of descriptors ${where}`, counts());
    makeRoom(0, keep);
  }

  const sweeper = setInterval(() => {
    const now = Date.now();
    budget = Math.min(limits.fdBudget, budget + 8);
    for (const c of all) {
      const deadline = c.inRequest
        ? c.requestAt + limits.requestTimeoutMs
        : c.firstByte
        ? c.firstByte + limits.headersTimeoutMs
        : Math.max(c.since, c.lastOut) + limits.keepAliveMs;
      if (now > deadline) close(c, "timedOut");
      else if (
        c.upstream && !c.parked && !c.inRequest && !c.firstByte && now - c.since > limits.parkAfterMs
      ) {
        c.parked = Promise.withResolvers(); // the inner server closes its side, then `answers` parks it
        c.upstream.closeWrite().catch(() => close(c));
      }
    }
  }, 250);

  async function refuse(c: Client, status: string): Promise<false> {
    stats.refused++;
    const text = `HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`;
    await writeAll(c.conn, encoder.encode(text)).catch(() => {});
    return close(c);
  }

  /**
   * Reads the client's bytes for the connection's whole life: a request head where no relay is open (the first
   * one, or after the relay was parked), checked and then relayed; else the bytes are passed on.
   */
  async function handle(c: Client): Promise<void> {
    const one = new Uint8Array(1);
    try {
      while (!c.closed) {
        if (await c.conn.read(one) === null) { // waits without a buffer
          if (c.upstream && !c.parked) return await c.upstream.closeWrite(); // its answer may follow
          return void close(c);
        }
        await c.parked?.promise;
        if (c.upstream) {
          if (!c.inRequest && !c.firstByte) c.firstByte = Date.now();
          await passOn(one[0], c.conn, c.upstream);
        } else if (!await relay(c, one[0])) return;
      }
    } catch {
      close(c);
    }
  }

  /** Reads a request head that begins with `first`, checks its request line and relays it; false when not. */
  async function relay(c: Client, first: number): Promise<boolean> {
    c.firstByte = Date.now();
    move(c, heads);
    let head = Uint8Array.of(first);
    for (;;) {
      const text = latin1.decode(head).replace(/^[\r\n]+/, "");
      const eol = text.indexOf("\n");
      const refusal = eol < 0 ? null : refusalOf(text.slice(0, eol).replace(/\r$/, ""));
      if (refusal) return refuse(c, refusal);
      if (/\n\r?\n/.test(text)) break;
      if (head.length >= limits.maxHeaderBytes) return refuse(c, "431 Request Header Fields Too Large");
      const bigger = new Uint8Array(Math.min(Math.max(2048, head.length * 2), limits.maxHeaderBytes));
      bigger.set(head);
      const n = await c.conn.read(bigger.subarray(head.length));
      if (n === null || c.closed) return close(c);
      head = bigger.subarray(0, head.length + n);
    }
    if (!makeRoom(2, c)) return refuse(c, "503 Service Unavailable");
    c.fds = 3;
    fds += 2;
    move(c, unanswered); // `firstByte` stays until its handler is called: no park before
    let upstream = await Deno.connect(innerAddr).catch((error: Error) => error);
    if (upstream instanceof Error && outOfDescriptors(upstream) && !c.closed) {
      lackingDescriptors("connecting to the inner server", c); // then once more before a 503
      upstream = await tick(10).then(() => Deno.connect(innerAddr)).catch((error: Error) => error);
    }
    if (upstream instanceof Error) return refuse(c, "503 Service Unavailable");
    if (c.closed) {
      upstream.close();
      return false;
    }
    c.upstream = upstream;
    byPort.set((upstream.localAddr as Deno.NetAddr).port, c);
    upstream.setNoDelay(true);
    c.conn.setNoDelay(true);
    await writeAll(upstream, head);
    void answers(c, upstream);
    return true;
  }

  /** Writes `first` and what else `from` has ready to `to`, through a chunk from the pool. */
  async function passOn(first: number, from: Deno.TcpConn, to: Deno.TcpConn): Promise<void> {
    const chunk = pool.pop() ?? new Uint8Array(CHUNK);
    chunk[0] = first;
    await writeAll(to, chunk.subarray(0, 1 + (await from.read(chunk.subarray(1)) ?? 0)));
    if (pool.length < 64) pool.push(chunk);
  }

  /** Passes the inner server's answers on; when it closes a parked relay, the client connection stays. */
  async function answers(c: Client, upstream: Deno.TcpConn): Promise<void> {
    const one = new Uint8Array(1);
    try {
      while (!c.closed) {
        if (await upstream.read(one) === null) break;
        await passOn(one[0], upstream, c.conn);
        c.lastOut = Date.now();
      }
    } catch { /* closed below */ }
    if (!c.parked || c.closed) return void close(c);
    byPort.delete((upstream.localAddr as Deno.NetAddr).port);
    upstream.close();
    c.upstream = null;
    c.fds = 1;
    fds -= 2;
    c.parked.resolve();
    c.parked = null;
  }

  // A long accept queue: while a flood keeps the process busy, a full queue drops new clients' SYNs.
  const listener = Deno.listen({ hostname: options.hostname, port: options.port, tcpBacklog: 4096 });
  options.onListen?.(listener.addr);

  async function acceptLoop(): Promise<void> {
    for (let accepted = 1; !stopping; accepted++) {
      if (accepted % 64 === 0) await tick(); // accepts complete at once in a flood: let the reads run
      let conn: Deno.TcpConn;
      try {
        conn = await listener.accept();
      } catch (error) {
        if (stopping || error instanceof Deno.errors.BadResource) return;
        if (!outOfDescriptors(error) && !(error instanceof Deno.errors.ConnectionAborted)) throw error;
        if (outOfDescriptors(error)) lackingDescriptors("accepting");
        await tick(10);
        continue;
      }
      stats.accepted++;
      const c = new Client(conn, Date.now());
      all.add(c);
      move(c, quiet);
      fds++;
      if (!makeRoom(0, c)) void refuse(c, "503 Service Unavailable");
      else handle(c).catch(() => close(c));
    }
  }
  const finished = acceptLoop();
  finished.catch(() => clearInterval(sweeper));

  return {
    addr: listener.addr,
    finished: finished.then(() => inner.finished),
    async shutdown() {
      stopping = true;
      listener.close();
      for (const c of all) if (!c.upstream) close(c);
      await inner.shutdown();
      // The inner server has written its last answers; give the relays a moment to pass them on.
      for (const deadline = Date.now() + 1_000; all.size && Date.now() < deadline;) await tick(10);
      for (const c of all) close(c);
      clearInterval(sweeper);
      await finished.catch(() => {});
    },
    stats: counts,
  };
}
