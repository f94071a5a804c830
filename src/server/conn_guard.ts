// The public listener when the process faces the internet itself (behind a proxy, CONNECTION_GUARD=0 serves
// plainly). Deno.serve has no header, body or keep-alive timeouts, holds any number of connections and its
// accept loop gives up on "Too many open files": ~1,000 half-sent headers once ended the process. The guard
// owns the accept loop, reads each connection's first request line and headers itself, and relays
// connections that sent whole HTTP/1.x headers to a Deno.serve on an ephemeral loopback port (the handler
// sees the real client address). It keeps the descriptors it spends within a budget below the soft limit.
//
// When the budget runs short, connections are closed in this order, the longest-standing first in each:
//   1. headers started and not finished (not handed over yet);
//   2. handed over with nothing served yet, still owed the body its headers announced;
//   3. kept alive, its last answer passed on, and idle since;
//   4. accepted and not read yet (for a newcomer, only after the reads have had a turn: see acceptLoop);
//   5. requests in the handler for longer than `sheddableAfterMs`.
// Anything else is never closed to make room: a connection that finds no room gets 503.
import { log } from "../core/log.ts";
import { contentLength, headerEnd, plainAnswer, refusalOfHead } from "./http1_head.ts";

export interface GuardLimits {
  /** From the first byte of a request (or the connection's opening) to the end of its headers. */
  headersTimeoutMs: number;
  /** From the end of the headers to the handler's answer: the body must have arrived by then. */
  requestTimeoutMs: number;
  /** How long a connection may sit idle between requests. */
  keepAliveMs: number;
  /** Header bytes accepted before the headers end (431 beyond). */
  maxHeaderBytes: number;
  /** Descriptors client connections may use: 1 each until their headers end, 3 once relayed. */
  fdBudget: number;
  /** Under pressure, a request running longer than this may be cut to make room. */
  sheddableAfterMs: number;
}

export const DEFAULT_LIMITS: Omit<GuardLimits, "fdBudget"> = {
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 10_000,
  keepAliveMs: 5_000,
  maxHeaderBytes: 32 * 1024,
  sheddableAfterMs: 250,
};

/** The fewest descriptors client connections are ever given, however tight the limit. */
const MIN_BUDGET = 64;
/** Descriptors kept for everything else: the database files and sockets, static files, logs. */
const RESERVED_FDS = 160;
/** A streamed answer may pause this long between chunks before its connection counts as idle (rule 3). */
const ANSWER_PAUSE_MS = 250;
/** Out of descriptors within the budget: it drops this far below what is in use, and grows back 8 a sweep. */
const DESCRIPTOR_SLACK = 64;
/** Reads wait with a small buffer; one that fills it is followed by pooled 16 KiB reads until one is short. */
const SMALL_READ = 1024;
const BIG_READ = 16 * 1024;
const POOL_MAX = 256;

export type GuardStats = Record<
  "open" | "relayed" | "fdsInUse" | "fdBudget" | "accepted" | "evicted" | "refused" | "timedOut",
  number
>;

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

/** The soft limit on open descriptors (Deno raises it to the hard limit at start), and how many are open. */
export async function descriptorLimits(): Promise<{ soft: number; open: number } | null> {
  if (Deno.build.os !== "linux") return null;
  try {
    const soft = Number(/^Max open files\s+(\d+)/m.exec(await Deno.readTextFile("/proc/self/limits"))?.[1]);
    let open = 0;
    for await (const _ of Deno.readDir("/proc/self/fd")) open++;
    return Number.isFinite(soft) && soft > 0 ? { soft, open } : null;
  } catch {
    return null;
  }
}

/** The budget for client connections: what the soft limit leaves after those open now and a reserve. */
export function fdBudgetFor(limits: { soft: number; open: number } | null): number {
  return limits ? Math.max(MIN_BUDGET, limits.soft - limits.open - RESERVED_FDS) : 512;
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let done = 0; done < bytes.length;) done += await conn.write(bytes.subarray(done));
}

const pool: Uint8Array[] = [];

/** Copies `from` to `to` until `from` ends; an idle direction holds only its small buffer. */
async function pump(from: Deno.Conn, to: Deno.Conn, onBytes: (n: number) => void): Promise<void> {
  const small = new Uint8Array(SMALL_READ);
  let big: Uint8Array | undefined;
  try {
    for (;;) {
      const buffer = big ?? small;
      const n = await from.read(buffer);
      if (n === null) return;
      onBytes(n);
      await writeAll(to, buffer.subarray(0, n));
      if (n === buffer.length) big ??= pool.pop() ?? new Uint8Array(BIG_READ);
      else if (big) {
        giveBack(big); // the burst is over
        big = undefined;
      }
    }
  } finally {
    if (big) giveBack(big);
  }
}

/** Returns a 16 KiB buffer to the pool (kept to `POOL_MAX`). */
function giveBack(buffer: Uint8Array): void {
  if (pool.length < POOL_MAX) pool.push(buffer);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function closeQuietly(resource: { close(): void }): void {
  try {
    resource.close();
  } catch { /* closed by the peer already */ }
}

function isDescriptorExhaustion(error: unknown): boolean {
  return /too many open files|os error 2[34]\b/i.test(String((error as Error)?.message ?? error));
}

class Client {
  /** Handed over: counts 3 descriptors (client, relay and the inner server's end) from then on. */
  relayed = false;
  upstream: Deno.TcpConn | null = null;
  closed = false;
  /** Requests in the handler, when the latest began, and how many were answered. */
  inRequest = 0;
  requestStart = 0;
  served = 0;
  /** First byte of a request not yet in the handler (0 = none): the headers clock. */
  firstByteAt = 0;
  /** Last bytes either way, or the handler's end: the keep-alive clock. */
  lastActive: number;
  /** When the handler last returned, and when answer bytes last came from the inner server. */
  answeredAt = 0;
  lastAnswerByte = 0;
  /** Body bytes the first request announced and the client has not sent yet. */
  bodyOwed = 0;
  constructor(
    readonly conn: Deno.TcpConn,
    readonly remoteAddr: Deno.NetAddr,
  ) {
    this.lastActive = Date.now();
  }
}

export async function serveGuarded(options: GuardOptions): Promise<GuardedServer> {
  const limits: GuardLimits = {
    ...DEFAULT_LIMITS,
    fdBudget: fdBudgetFor(await descriptorLimits()),
    ...options.limits,
  };
  const clients = new Set<Client>();
  const byUpstreamPort = new Map<number, Client>();
  const stats = { accepted: 0, evicted: 0, refused: 0, timedOut: 0 };
  let fdsInUse = 0;
  let budgetCut = 0;
  const budget = () => limits.fdBudget - budgetCut;
  let stopping = false;

  const serveRelayed = async (request: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => {
    // Only the guard's own relays, matched by source port and address: a local process connecting directly
    // (say from 127.0.0.2 with a live relay's port) would otherwise bypass every limit and pose as its client.
    const client = byUpstreamPort.get(info.remoteAddr.port);
    if (!client || info.remoteAddr.hostname !== (client.upstream?.localAddr as Deno.NetAddr).hostname) {
      return new Response(null, { status: 421, headers: { connection: "close" } });
    }
    client.inRequest++;
    client.requestStart = Date.now();
    client.firstByteAt = 0;
    try {
      return await options.handler(request, { ...info, remoteAddr: client.remoteAddr });
    } finally {
      client.inRequest--;
      client.served++;
      client.lastActive = client.answeredAt = Date.now();
    }
  };
  /**
   * The inner server. Its accept loop ends for good when the process runs out of descriptors (the inner
   * side of a relay the guard closed stays open until the inner server gets to it, so the count lags under
   * load): another is started in its place, retried every 100 ms until the descriptors allow it.
   */
  let inner: Deno.HttpServer<Deno.NetAddr>;
  function startInner(): void {
    try {
      inner = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, serveRelayed);
    } catch (error) {
      warn(`the inner server could not start (${error}), retrying`);
      setTimeout(startInner, 100);
      return;
    }
    inner.finished.catch((error) => {
      if (stopping) return;
      warn(`the inner server stopped (${error}), starting another`);
      outOfDescriptors("in the inner server");
      startInner();
    });
  }

  function close(client: Client, reason?: "evicted" | "timedOut" | "refused"): void {
    if (client.closed) return;
    client.closed = true;
    if (reason) stats[reason]++;
    clients.delete(client);
    fdsInUse -= client.relayed ? 3 : 1;
    closeQuietly(client.conn);
    if (client.upstream) {
      byUpstreamPort.delete((client.upstream.localAddr as Deno.NetAddr).port);
      closeQuietly(client.upstream);
    }
  }

  /** The eviction rule (1–5, see the top of this file) a connection falls under now, or 0 for none. */
  function evictionRule(c: Client, now: number): number {
    if (!c.relayed) return c.firstByteAt ? 1 : 4;
    if (c.served === 0 && c.bodyOwed > 0) return 2;
    if (c.inRequest === 0) {
      return c.lastAnswerByte >= c.answeredAt && now - c.lastActive > ANSWER_PAUSE_MS ? 3 : 0;
    }
    return now - c.requestStart > limits.sheddableAfterMs ? 5 : 0;
  }

  const lastWarned = new Map<string, number>();
  function warn(what: string): void {
    if (Date.now() - (lastWarned.get(what) ?? 0) < 10_000) return;
    lastWarned.set(what, Date.now());
    log.warn(`connection limit: ${what}`, { open: clients.size, fdsInUse, fdBudget: budget(), ...stats });
  }

  /** Frees room for `need` more descriptors by the eviction rules up to `lastRule`, never closing `keep`. */
  function makeRoom(need: number, keep?: Client, lastRule = 5): boolean {
    if (fdsInUse + need <= budget()) return true;
    warn("closing the connections that have proven least");
    const now = Date.now();
    for (let rule = 1; rule <= lastRule; rule++) {
      for (const c of clients) {
        if (fdsInUse + need <= budget()) return true;
        if (c !== keep && evictionRule(c, now) === rule) close(c, "evicted");
      }
    }
    return fdsInUse + need <= budget();
  }

  /** The process ran out of descriptors though the count was within the budget (see `DESCRIPTOR_SLACK`). */
  function outOfDescriptors(where: string): void {
    budgetCut = Math.min(
      limits.fdBudget - MIN_BUDGET,
      Math.max(budgetCut, limits.fdBudget - fdsInUse + DESCRIPTOR_SLACK),
    );
    warn(`out of descriptors ${where}`);
    makeRoom(0);
  }

  const sweeper = setInterval(() => {
    const now = Date.now();
    budgetCut = Math.max(0, budgetCut - 8);
    for (const c of clients) {
      const late = c.inRequest > 0
        ? now - c.requestStart > limits.requestTimeoutMs
        : c.firstByteAt
        ? now - c.firstByteAt > limits.headersTimeoutMs
        : now - c.lastActive > limits.keepAliveMs;
      if (late) close(c, "timedOut");
    }
  }, 250);

  async function refuse(client: Client, status: string): Promise<void> {
    stats.refused++;
    await writeAll(client.conn, plainAnswer(status)).catch(() => {});
    close(client);
  }

  /**
   * Reads the first request's line and headers, then, in the same turn (no other connection can take it for
   * one still sending headers), claims room for the relay, connects to the inner server, passes the bytes
   * read on and relays both ways until either side ends.
   */
  async function handle(client: Client): Promise<void> {
    let head = new Uint8Array(SMALL_READ);
    let length = 0;
    for (let end = -1; end < 0;) {
      if (length === head.length) {
        if (length >= limits.maxHeaderBytes) return refuse(client, "431 Request Header Fields Too Large");
        const bigger = new Uint8Array(Math.min(length * 2, limits.maxHeaderBytes));
        bigger.set(head);
        head = bigger;
      }
      const n = await client.conn.read(head.subarray(length));
      if (n === null || client.closed) return;
      client.firstByteAt ||= Date.now();
      end = headerEnd(head.subarray(0, length + n), length - 2);
      length += n;
      const refusal = refusalOfHead(head.subarray(0, length));
      if (refusal) return refuse(client, refusal);
      if (end >= 0) client.bodyOwed = Math.max(0, contentLength(head.subarray(0, end)) - (length - end));
    }
    if (!makeRoom(2, client)) return refuse(client, "503 Service Unavailable");
    client.relayed = true;
    client.lastActive = Date.now();
    fdsInUse += 2;
    let upstream: Deno.TcpConn | undefined;
    for (let attempt = 1; !upstream; attempt++) {
      try {
        upstream = await Deno.connect({ hostname: inner.addr.hostname, port: inner.addr.port });
      } catch (error) {
        if (client.closed) return;
        if (attempt > 1 || !isDescriptorExhaustion(error)) return refuse(client, "503 Service Unavailable");
        outOfDescriptors("connecting to the inner server");
      }
    }
    if (client.closed) return upstream.close();
    client.upstream = upstream;
    byUpstreamPort.set((upstream.localAddr as Deno.NetAddr).port, client);
    upstream.setNoDelay(true);
    client.conn.setNoDelay(true);
    await writeAll(upstream, head.subarray(0, length));
    await Promise.all([
      pump(client.conn, upstream, (n) => {
        client.lastActive = Date.now();
        if (client.bodyOwed > 0) client.bodyOwed = Math.max(0, client.bodyOwed - n);
        else if (client.inRequest === 0) client.firstByteAt ||= client.lastActive;
      }).then(() => upstream.closeWrite().catch(() => {})),
      pump(upstream, client.conn, () => client.lastActive = client.lastAnswerByte = Date.now())
        .finally(() => close(client)),
    ]);
  }

  startInner();

  // A long accept queue: while a flood keeps the process busy, a full queue makes the kernel drop new SYNs
  // and a well-behaved client waits for its 1 s retransmission (capped by net.core.somaxconn).
  const listener = Deno.listen({ hostname: options.hostname, port: options.port, tcpBacklog: 4096 });
  const addr = listener.addr as Deno.NetAddr;
  options.onListen?.(addr);

  async function acceptLoop(): Promise<void> {
    for (let accepted = 1; !stopping; accepted++) {
      // Waiting accepts complete at once: every 16, let the reads of those already accepted run.
      if (accepted % 16 === 0) await sleep(0);
      let conn: Deno.TcpConn;
      try {
        conn = await listener.accept();
      } catch (error) {
        if (stopping || error instanceof Deno.errors.BadResource) return;
        if (isDescriptorExhaustion(error)) {
          outOfDescriptors("accepting");
          await sleep(10);
        } else if (
          !(error instanceof Deno.errors.ConnectionAborted || error instanceof Deno.errors.ConnectionReset)
        ) {
          throw error;
        }
        continue;
      }
      stats.accepted++;
      const client = new Client(conn, conn.remoteAddr as Deno.NetAddr);
      clients.add(client);
      fdsInUse += 1;
      // Connections not read yet go only after the reads have had a turn: those that sent half a header show
      // it and go first, and a fresh client's request waiting in the kernel gets read.
      if (!makeRoom(0, client, 3)) {
        await sleep(0);
        if (!makeRoom(0, client)) {
          void refuse(client, "503 Service Unavailable");
          continue;
        }
      }
      handle(client).catch(() => {}).finally(() => close(client));
    }
  }

  const finished = acceptLoop();
  finished.catch(() => clearInterval(sweeper));

  return {
    addr,
    finished: finished.then(() => inner.finished),
    async shutdown() {
      stopping = true;
      closeQuietly(listener);
      for (const c of clients) if (!c.upstream) close(c);
      await inner.shutdown();
      // The inner server has written its last answers; give the relays a moment to pass them on.
      const deadline = Date.now() + 1_000;
      while (clients.size && Date.now() < deadline) await sleep(10);
      for (const c of clients) close(c);
      clearInterval(sweeper);
      await finished.catch(() => {});
    },
    stats: () => ({
      open: clients.size,
      relayed: byUpstreamPort.size,
      fdsInUse,
      fdBudget: budget(),
      ...stats,
    }),
  };
}
