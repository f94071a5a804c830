// The public listener. Deno.serve has no header, body or keep-alive timeouts, holds any number of
// connections, and its accept loop gives up on "Too many open files", so ~1,000 half-sent headers ended the
// process. This guard owns the accept loop and every client connection: it keeps the descriptors it spends
// within a budget below the soft limit, evicts the connections that have proven nothing first, cuts clients
// that are slow to send their headers or their body, and relays proven connections to a Deno.serve that
// listens on an ephemeral loopback port (the handler sees the real client address).
import { log } from "../core/log.ts";

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

/** The share of the budget relayed connections may use; the rest stays for new connections. */
const RELAY_SHARE = 0.5;

/** The fewest descriptors client connections are ever given, however tight the limit. */
const MIN_BUDGET = 64;

/** Descriptors kept for everything else: the database files and sockets, static files, logs. */
const RESERVED_FDS = 160;

export interface GuardStats {
  open: number;
  relayed: number;
  fdsInUse: number;
  fdBudget: number;
  accepted: number;
  evicted: number;
  refused: number;
  timedOut: number;
}

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
    const text = await Deno.readTextFile("/proc/self/limits");
    const soft = Number(/^Max open files\s+(\d+)/m.exec(text)?.[1]);
    let open = 0;
    for await (const _ of Deno.readDir("/proc/self/fd")) open++;
    return Number.isFinite(soft) && soft > 0 ? { soft, open } : null;
  } catch {
    return null;
  }
}

/** The budget for client connections: what the soft limit leaves after those open now and a reserve. */
export function fdBudgetFor(limits: { soft: number; open: number } | null): number {
  if (!limits) return 512;
  return Math.max(MIN_BUDGET, limits.soft - limits.open - RESERVED_FDS);
}

const ACCEPTS_BEFORE_YIELD = 64;
/** How long after its headers a first request may still be waiting for its body before it can be shed. */
const BODY_GRACE_MS = 100;
/**
 * A relay counts as idle only this long after its handler returned and its last answer bytes went by: the
 * handler is done before its answer has been passed on, and cutting it then would cut the answer.
 */
const ANSWER_GRACE_MS = 250;
/**
 * A connection not read yet is closed before others only once it has been silent this long: a fresh client's
 * request may be waiting in the kernel while the busy loop has not read it yet (a flood's probe was cut so).
 */
const UNREAD_GRACE_MS = 250;
/**
 * When the process runs out of descriptors all the same (the inner server closes its side of a finished relay
 * only when it gets to it, and under load that lags), the budget is cut to this many below what is in use,
 * then given back by `BUDGET_RECOVERY` at each sweep (250 ms).
 */
const DESCRIPTOR_SLACK = 64;
const BUDGET_RECOVERY = 8;
const PRE_RELAY_CHUNK = 2 * 1024;
/** Each relayed connection holds two of these (one per direction): 32 KiB, not the 128 KiB of 64 KiB chunks. */
const RELAY_CHUNK = 16 * 1024;
const encoder = new TextEncoder();

function plainAnswer(status: string): Uint8Array {
  return encoder.encode(
    `HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\nretry-after: 1\r\n\r\n`,
  );
}
const ANSWER_503 = plainAnswer("503 Service Unavailable");
const ANSWER_431 = plainAnswer("431 Request Header Fields Too Large");
const ANSWER_505 = plainAnswer("505 HTTP Version Not Supported");
const ANSWER_400 = plainAnswer("400 Bad Request");

/**
 * Why a request line is refused (the status line to answer), or null for HTTP/1.0 and HTTP/1.1. Only those
 * are relayed: the HTTP/2 preface (`PRI * HTTP/2.0`, prior knowledge) would otherwise pass for a request
 * whose headers ended, and the inner server would hold the connection as HTTP/2, whose streams share one
 * connection and so escape the per-request clock and the eviction rules.
 */
export function refusalOf(line: string): string | null {
  if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+ [\x21-\x7e\x80-\xff]+ HTTP\/1\.[01]$/.test(line)) return null;
  if (/^[A-Za-z]+ \S+ HTTP\/\d(\.\d)?$/.test(line)) return "505 HTTP Version Not Supported";
  return "400 Bad Request";
}

const latin1 = new TextDecoder("latin1");

/** The refusal for a request's first line once it has arrived (empty lines before it are skipped), or null. */
function refusalOfHead(bytes: Uint8Array): Uint8Array | null {
  let start = 0;
  while (bytes[start] === 13 || bytes[start] === 10) start++;
  const eol = bytes.indexOf(10, start);
  if (eol < 0) return null;
  const line = latin1.decode(bytes.subarray(start, bytes[eol - 1] === 13 ? eol - 1 : eol));
  const problem = refusalOf(line);
  return problem === null ? null : problem.startsWith("505") ? ANSWER_505 : ANSWER_400;
}

/** Index just past the blank line that ends the headers (CRLF or bare LF line ends), or -1. */
export function headerEnd(bytes: Uint8Array, from: number): number {
  for (let i = Math.max(0, from); i < bytes.length; i++) {
    if (bytes[i] !== 10) continue;
    if (bytes[i + 1] === 10) return i + 2;
    if (bytes[i + 1] === 13 && bytes[i + 2] === 10) return i + 3;
  }
  return -1;
}

const decoder = new TextDecoder();

/** The Content-Length a header block announces (0 without one). */
export function contentLength(headers: Uint8Array): number {
  const match = /\ncontent-length:[ \t]*(\d{1,15})/i.exec(decoder.decode(headers));
  return match ? Number(match[1]) : 0;
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let done = 0;
  while (done < bytes.length) done += await conn.write(bytes.subarray(done));
}

function isDescriptorExhaustion(error: unknown): boolean {
  const text = String((error as Error)?.message ?? error);
  return /too many open files|os error 2[34]\b/i.test(text);
}

class Client {
  upstream: Deno.TcpConn | null = null;
  relaying = false;
  closed = false;
  inRequest = 0;
  requestStart = 0;
  /** Start of the current wait for a request: the opening, or the end of the previous request. */
  phaseStart: number;
  /** First byte of the next request seen in this phase (0 = none yet). */
  firstByteAt = 0;
  lastUpstreamByte = 0;
  /** Requests answered on this connection. */
  served = 0;
  relayedAt = 0;
  /** Body bytes of the first request announced by Content-Length and not received yet. */
  bodyOwed = 0;

  constructor(readonly conn: Deno.TcpConn, readonly remoteAddr: Deno.NetAddr, now: number) {
    this.phaseStart = now;
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
  let relays = 0;
  /** Descriptors taken off the budget after the process ran out of them (see `DESCRIPTOR_SLACK`). */
  let budgetCut = 0;
  const budget = () => limits.fdBudget - budgetCut;
  let stopping = false;

  const inner = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: () => {},
  }, async (request, info) => {
    const client = byUpstreamPort.get(info.remoteAddr.port);
    // Only the guard's own relays are served, matched by source address and port: a local process connecting
    // to the inner port directly (say from 127.0.0.2 with a live relay's port) would otherwise bypass every
    // limit and pose as that relay's client.
    if (!client || info.remoteAddr.hostname !== (client.upstream?.localAddr as Deno.NetAddr)?.hostname) {
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
      client.phaseStart = Date.now();
    }
  });
  const innerAddr = inner.addr;

  function close(client: Client, reason?: "evicted" | "timedOut" | "refused"): void {
    if (client.closed) return;
    client.closed = true;
    if (reason) stats[reason]++;
    clients.delete(client);
    fdsInUse -= 1;
    try {
      client.conn.close();
    } catch { /* already closed by the peer */ }
    if (client.relaying) {
      client.relaying = false;
      relays--;
      fdsInUse -= 2;
    }
    if (client.upstream) {
      byUpstreamPort.delete((client.upstream.localAddr as Deno.NetAddr).port);
      try {
        client.upstream.close();
      } catch { /* already closed */ }
    }
  }

  /** When each kind of pressure was last logged: at most once per 10 s each. */
  const lastPressureLog = new Map<string, number>();
  function pressure(what: string): void {
    const now = Date.now();
    if (now - (lastPressureLog.get(what) ?? 0) < 10_000) return;
    lastPressureLog.set(what, now);
    log.warn(`connection limit: ${what}`, {
      open: clients.size,
      fdsInUse,
      fdBudget: budget(),
      ...stats,
    });
  }

  /**
   * The process ran out of descriptors though the count was within the budget: cut the budget below what is in
   * use and free the difference, closing the connections that have proven least (a fresh one not read yet
   * only if nothing else is left).
   */
  function lackingDescriptors(where: string): void {
    budgetCut = Math.min(
      limits.fdBudget - MIN_BUDGET,
      Math.max(budgetCut, limits.fdBudget - fdsInUse + DESCRIPTOR_SLACK),
    );
    pressure(`out of descriptors ${where}`);
    if (!makeRoom(0, undefined, false, false)) makeRoom(0, undefined, false);
  }

  /**
   * Frees descriptors for `need` more (and, for a new relay, room in the relays' share, so connections
   * still proving themselves always have some) by closing, in this order: connections whose partial
   * headers were read (oldest first), relays still owed their first body, idle kept-alive relays,
   * connections not read for `UNREAD_GRACE_MS`, relays owed a body however recent (for a request that came
   * whole), connections not read yet however recent, and requests running for longer than
   * `sheddableAfterMs`. Legitimate requests
   * send their body with their headers and take milliseconds; a dripped body takes seconds.
   */
  function makeRoom(need: number, keep: Client | undefined, forRelay: boolean, closeUnread = true): boolean {
    const short = () => fdsInUse + need > budget();
    const relaysShort = () => forRelay && (relays + 1) * 3 > budget() * RELAY_SHARE;
    if (!short() && !relaysShort()) return true;
    pressure("closing the connections that have proven least");
    const now = Date.now();
    // A request that arrived whole (headers and body) has proven more than one still owed its body, even
    // one relayed a moment ago: a flood of announced bodies must not shut out a plain GET.
    const keepIsWhole = forRelay && keep !== undefined && keep.bodyOwed === 0;
    const order: [relay: boolean, pick: (c: Client) => boolean][] = [
      [false, (c) => c.firstByteAt > 0],
      [true, (c) => c.bodyOwed > 0 && now - c.relayedAt > BODY_GRACE_MS],
      [
        true,
        (c) =>
          c.inRequest === 0 && c.served > 0 &&
          now - Math.max(c.phaseStart, c.lastUpstreamByte) > ANSWER_GRACE_MS,
      ],
      [false, (c) => closeUnread && now - c.phaseStart > UNREAD_GRACE_MS],
      [true, (c) => keepIsWhole && c.bodyOwed > 0],
      [false, () => closeUnread],
      [true, (c) => c.inRequest > 0 && now - c.requestStart > limits.sheddableAfterMs],
    ];
    for (const [relay, pick] of order) {
      if (!relay && !short()) continue; // only relays free room in the relays' share
      for (const c of clients) {
        if (!short() && !relaysShort()) return true;
        if (!relay && !short()) break;
        if (c !== keep && c.relaying === relay && pick(c)) close(c, "evicted");
      }
    }
    return !short() && !relaysShort();
  }

  function sweep(): void {
    const now = Date.now();
    budgetCut = Math.max(0, budgetCut - BUDGET_RECOVERY);
    for (const c of clients) {
      if (c.inRequest > 0) {
        if (now - c.requestStart > limits.requestTimeoutMs) close(c, "timedOut");
      } else if (c.firstByteAt) {
        if (now - c.firstByteAt > limits.headersTimeoutMs) close(c, "timedOut");
      } else if (now - Math.max(c.phaseStart, c.lastUpstreamByte) > limits.keepAliveMs) {
        close(c, "timedOut");
      }
    }
  }
  const sweeper = setInterval(sweep, 250);

  async function refuse(client: Client, answer: Uint8Array): Promise<void> {
    stats.refused++;
    await writeAll(client.conn, answer).catch(() => {});
    close(client);
  }

  /** Reads until the headers end, then connects upstream and relays both ways until either side closes. */
  async function handle(client: Client): Promise<void> {
    const { conn } = client;
    let pending = new Uint8Array(PRE_RELAY_CHUNK);
    let length = 0;
    let end = -1;
    while (end < 0) {
      if (length === pending.length) {
        if (length >= limits.maxHeaderBytes) return refuse(client, ANSWER_431);
        const bigger = new Uint8Array(Math.min(pending.length * 2, limits.maxHeaderBytes));
        bigger.set(pending);
        pending = bigger;
      }
      const n = await conn.read(pending.subarray(length));
      if (n === null || client.closed) return close(client);
      if (!client.firstByteAt) client.firstByteAt = Date.now();
      end = headerEnd(pending.subarray(0, length + n), length - 2);
      length += n;
      // HTTP/1.0 and HTTP/1.1 only, refused as soon as the request line is in (see refusalOf).
      const refusal = refusalOfHead(pending.subarray(0, length));
      if (refusal) return refuse(client, refusal);
    }
    client.bodyOwed = Math.max(0, contentLength(pending.subarray(0, end)) - (length - end));
    client.relayedAt = Date.now();
    if (!makeRoom(2, client, true)) return refuse(client, ANSWER_503);
    client.relaying = true; // from here on it counts 3 descriptors, whatever connect() does
    relays++;
    fdsInUse += 2;
    let upstream: Deno.TcpConn | undefined;
    for (let attempt = 1; !upstream; attempt++) {
      try {
        upstream = await Deno.connect({ hostname: innerAddr.hostname, port: innerAddr.port });
      } catch (error) {
        // Out of descriptors: make room and try once more before turning a whole request away.
        if (client.closed) return;
        if (attempt > 1 || !isDescriptorExhaustion(error)) return refuse(client, ANSWER_503);
        lackingDescriptors("connecting to the inner server");
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    if (client.closed) {
      upstream.close();
      return;
    }
    client.upstream = upstream;
    byUpstreamPort.set((upstream.localAddr as Deno.NetAddr).port, client);
    upstream.setNoDelay(true);
    client.conn.setNoDelay(true);
    try {
      await writeAll(upstream, pending.subarray(0, length));
    } catch {
      return close(client);
    }
    await Promise.all([toUpstream(client, upstream), toClient(client, upstream)]);
    close(client);
  }

  async function toUpstream(client: Client, upstream: Deno.TcpConn): Promise<void> {
    const buffer = new Uint8Array(RELAY_CHUNK);
    try {
      while (!client.closed) {
        const n = await client.conn.read(buffer);
        if (n === null) {
          await upstream.closeWrite().catch(() => {});
          return;
        }
        if (client.bodyOwed) client.bodyOwed = Math.max(0, client.bodyOwed - n);
        else if (client.inRequest === 0 && !client.firstByteAt) client.firstByteAt = Date.now();
        await writeAll(upstream, buffer.subarray(0, n));
      }
    } catch {
      close(client);
    }
  }

  async function toClient(client: Client, upstream: Deno.TcpConn): Promise<void> {
    const buffer = new Uint8Array(RELAY_CHUNK);
    try {
      while (!client.closed) {
        const n = await upstream.read(buffer);
        if (n === null) return close(client);
        client.lastUpstreamByte = Date.now();
        await writeAll(client.conn, buffer.subarray(0, n));
      }
    } catch {
      close(client);
    }
  }

  // A long accept queue: while a flood keeps the process busy, a full queue makes the kernel drop new SYNs,
  // and a well-behaved client's connection then waits for the kernel's 1 s retransmission. (Capped by
  // net.core.somaxconn, 4096 on current Linux.)
  const listener = Deno.listen({ hostname: options.hostname, port: options.port, tcpBacklog: 4096 });
  const addr = listener.addr as Deno.NetAddr;
  options.onListen?.(addr);

  async function acceptLoop(): Promise<void> {
    let inARow = 0;
    while (!stopping) {
      // A waiting accept completes at once, so a flood would keep this loop from ever yielding: every few
      // accepts, let the reads of the connections already accepted run (a fresh client's headers among them).
      if (++inARow % ACCEPTS_BEFORE_YIELD === 0) await new Promise((resolve) => setTimeout(resolve, 0));
      let conn: Deno.TcpConn;
      try {
        conn = await listener.accept();
      } catch (error) {
        if (stopping || error instanceof Deno.errors.BadResource) return;
        if (isDescriptorExhaustion(error)) {
          // More descriptors are open than counted (the inner server's side of finished relays closes late
          // under load, or something else in the process opened files): free some and keep accepting.
          lackingDescriptors("accepting");
          await new Promise((resolve) => setTimeout(resolve, 10));
          continue;
        }
        if (error instanceof Deno.errors.ConnectionAborted || error instanceof Deno.errors.ConnectionReset) {
          continue;
        }
        throw error;
      }
      stats.accepted++;
      const client = new Client(conn, conn.remoteAddr as Deno.NetAddr, Date.now());
      clients.add(client);
      fdsInUse += 1;
      // Connections not read yet may be a fresh client's whose request is already waiting in the kernel: let
      // the reads run once, so those that sent half a header show it and go first.
      if (!makeRoom(0, client, false, false)) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (!makeRoom(0, client, false)) {
          void refuse(client, ANSWER_503);
          continue;
        }
      }
      handle(client).catch(() => close(client));
    }
  }

  const finished = acceptLoop();
  finished.catch(() => clearInterval(sweeper));

  return {
    addr,
    finished: finished.then(() => inner.finished),
    async shutdown() {
      stopping = true;
      try {
        listener.close();
      } catch { /* closed */ }
      for (const c of clients) if (!c.relaying) close(c);
      await inner.shutdown();
      // The inner server has written its last answers; give the relays a moment to pass them on.
      const deadline = Date.now() + 1_000;
      while (clients.size && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
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
