// The public listener when the process faces the internet itself (behind a proxy, CONNECTION_GUARD=0 serves
// plainly). Deno.serve has no header, body or keep-alive timeouts, holds any number of connections and its
// accept loop gives up on "Too many open files": ~1,000 half-sent headers once ended the process.
//
// The guard owns the accept loop and hands each connection, untouched, to Deno's own HTTP server for that one
// connection (`serveHttpOnConnection`, the function behind Deno.serve, reached through `Deno[Deno.internal]`:
// Deno has no public way to serve a connection it did not accept). It never reads or copies a byte: it
// watches the handler, and closes a connection by aborting its server (see `Closer`). So a request costs
// what it costs on Deno.serve, a connection one descriptor and Deno's own buffers. (It used to read each request's headers
// itself and relay the connection to a Deno.serve on a loopback port: ~35 µs more per request, three
// descriptors and ~60 KB per connection. bench/guard.ts measures both against Deno.serve alone.)
//
// What a connection may do, whatever protocol Deno's server speaks on it (HTTP/1.x, or HTTP/2 with prior
// knowledge, whose streams are requests like any other):
//   - with no request in the handler and no answer being sent, stay open `idleTimeoutMs`: that bounds the
//     wait for a new connection's first headers, for the next request's headers and a kept-alive idle spell;
//   - keep each request in the handler `requestTimeoutMs` (its body must have arrived by then), and take
//     `answerTimeoutMs` to receive each answer. Each request has its own clock: new streams do not reset it.
// Past either, the connection is closed. When the descriptor budget (below the soft limit) is spent, the next
// connection is accepted once one of these has been closed to make room, the longest-standing first:
//   1. connections not answered yet (half-sent headers, a bare preface, a first body still dripping in),
//      once they have been open `graceMs` and the event loop has turned twice since they were accepted;
//   2. connections idle between requests;
//   3. connections whose oldest request or answer has run for longer than `sheddableAfterMs`.
// Rules 2 and 3 wait while a connection not answered yet is in its grace, and new connections wait in the
// kernel's accept queue until one connection qualifies. The grace is what lets a fresh client in during a
// flood: a request it sent with its connection reaches the handler within it, so clients that reconnect as
// soon as they are cut cannot push it out first.
import { setImmediate } from "node:timers";
import { log } from "../core/log.ts";

export interface GuardLimits {
  /** From the opening, or the last answer sent, to the next request's whole headers. */
  idleTimeoutMs: number;
  /** From a request's headers to the handler's answer: its body must have arrived by then. */
  requestTimeoutMs: number;
  /** From the handler's answer to its last byte handed to the client's socket. */
  answerTimeoutMs: number;
  /** Descriptors client connections may use, one each. */
  fdBudget: number;
  /** Under pressure, a connection not answered yet may be cut to make room once open this long. */
  graceMs: number;
  /** Under pressure, a request or answer running longer than this may be cut to make room. */
  sheddableAfterMs: number;
}

const DEFAULT_LIMITS: Omit<GuardLimits, "fdBudget"> = {
  idleTimeoutMs: 5_000,
  requestTimeoutMs: 10_000,
  answerTimeoutMs: 60_000,
  graceMs: 50,
  sheddableAfterMs: 250,
};

/** The fewest descriptors client connections are ever given, however tight the limit. */
const MIN_BUDGET = 64;
/** Descriptors kept for everything else: the database files and sockets, static files, logs. */
const RESERVED_FDS = 160;

type Handler = (request: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => Response | Promise<Response>;

/**
 * What Deno's server for one connection takes as its abort signal. It only ever registers one "abort"
 * listener that closes the connection at once (checked by every timeout test in conn_guard_test.ts), so the
 * guard hands it this instead of an AbortController: a flood accepts thousands of connections a second, and
 * an AbortController with its signal cost about a third of the guard's work per connection.
 */
class Closer {
  #close?: () => void;
  addEventListener(_type: "abort", close: () => void): void {
    this.#close = close;
  }
  close(): void {
    const close = this.#close;
    this.#close = undefined;
    try {
      close?.();
    } catch { /* the connection ended on its own, its server closed already */ }
  }
}

/** Deno's server for one accepted connection: the same code path as Deno.serve, one connection long. */
type ServeOnConnection = (
  conn: Deno.Conn,
  signal: Closer,
  handler: Handler,
  onError: (error: unknown) => Response | Promise<Response>,
  onListen: (scheme: string) => void,
) => { finished: Promise<void> };

const deno = Deno as unknown as
  & { internal: symbol }
  & Record<symbol, { serveHttpOnConnection?: ServeOnConnection }>;
const serveOnConnection = deno[deno.internal]?.serveHttpOnConnection;

export type GuardStats = Record<"open" | "fdBudget" | "accepted" | "evicted" | "timedOut", number>;

export interface GuardedServer {
  addr: Deno.NetAddr;
  /** Settles when the listener stopped: resolves after shutdown(), rejects if accepting failed for good. */
  finished: Promise<void>;
  /** Stops accepting, lets requests in flight finish (up to 5 s), then closes every connection. */
  shutdown(): Promise<void>;
  stats(): GuardStats;
}

export interface GuardOptions {
  hostname: string;
  port: number;
  handler: Handler;
  onListen?: (addr: Deno.NetAddr) => void;
  limits?: Partial<GuardLimits>;
}

/** The soft limit on open descriptors (Deno raises it to the hard limit at start), and how many are open. */
async function descriptorLimits(): Promise<{ soft: number; open: number } | null> {
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
function fdBudgetFor(limits: { soft: number; open: number } | null): number {
  return limits ? Math.max(MIN_BUDGET, limits.soft - limits.open - RESERVED_FDS) : 512;
}

/** Removes one `value` from `list` (a connection's clocks: one entry per request in flight). */
function removeOne(list: number[], value: number): void {
  const at = list.indexOf(value);
  if (at >= 0) list.splice(at, 1);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isDescriptorExhaustion(error: unknown): boolean {
  return /too many open files|os error 2[34]\b/i.test(String((error as Error)?.message ?? error));
}

/** One accepted connection, as the guard sees it from the handler. */
class Client {
  readonly closer = new Closer();
  /** Requests the handler answered, ever. */
  answered = 0;
  /** When each request now in the handler began, and when each answer being sent was handed over. */
  readonly inHandler: number[] = [];
  readonly answering: number[] = [];
  /** Opened, or last answer sent: the idle clock while nothing is in flight. */
  idleSince = Date.now();
  readonly openedAt = this.idleSince;
  constructor(readonly acceptedInTurn: number) {}

  busy(): boolean {
    return this.inHandler.length > 0 || this.answering.length > 0;
  }

  /** When the oldest request or answer in flight began (Infinity when none). */
  oldestInFlight(): number {
    return Math.min(Infinity, ...this.inHandler, ...this.answering);
  }
}

export async function serveGuarded(options: GuardOptions): Promise<GuardedServer> {
  if (!serveOnConnection) {
    throw new Error("this Deno has no serveHttpOnConnection: run with CONNECTION_GUARD=0 behind a proxy");
  }
  const limits: GuardLimits = {
    ...DEFAULT_LIMITS,
    fdBudget: fdBudgetFor(await descriptorLimits()),
    ...options.limits,
  };
  const clients = new Set<Client>();
  const stats = { accepted: 0, evicted: 0, timedOut: 0 };
  /** Lowered when accepting found no descriptor though the count was within the budget; grows back. */
  let budgetCut = 0;
  const budget = () => limits.fdBudget - budgetCut;
  let stopping = false;

  function close(client: Client, reason?: "evicted" | "timedOut"): void {
    if (!clients.delete(client)) return; // ended already
    if (reason) stats[reason]++;
    client.closer.close();
  }

  /** Closes connections by the rules at the top of this file until one more fits; false to wait instead. */
  function makeRoom(): boolean {
    if (clients.size < budget()) return true;
    warn("closing the connections that have proven least");
    const now = Date.now();
    const fits = () => clients.size < budget();
    let inGrace = false;
    for (const c of clients) {
      if (c.answered > 0) continue;
      if (turn - c.acceptedInTurn < 2 || now - c.openedAt < limits.graceMs) {
        inGrace = true; // and so is every connection accepted after it (the set is in accept order)
        break;
      }
      close(c, "evicted");
      if (fits()) return true;
    }
    if (inGrace) return false; // rule 1 again after a turn, before any answered connection is cut
    for (const c of clients) {
      if (!c.busy()) close(c, "evicted");
      if (fits()) return true;
    }
    for (const c of clients) {
      if (now - c.oldestInFlight() > limits.sheddableAfterMs) close(c, "evicted");
      if (fits()) return true;
    }
    return false;
  }

  const lastWarned = new Map<string, number>();
  function warn(what: string): void {
    if (Date.now() - (lastWarned.get(what) ?? 0) < 10_000) return;
    lastWarned.set(what, Date.now());
    log.warn(`connection limit: ${what}`, { open: clients.size, fdBudget: budget(), ...stats });
  }

  const sweeper = setInterval(() => {
    const now = Date.now();
    budgetCut = Math.max(0, budgetCut - 8);
    for (const c of clients) {
      let late = !c.busy() && now - c.idleSince > limits.idleTimeoutMs;
      for (const since of c.inHandler) late ||= now - since > limits.requestTimeoutMs;
      for (const since of c.answering) late ||= now - since > limits.answerTimeoutMs;
      if (late) close(c, "timedOut");
    }
  }, 250);

  function onError(error: unknown): Response {
    log.error("the handler failed outside the app's own error handling", { error: String(error) });
    return new Response("Internal Server Error", { status: 500 });
  }

  function serve(client: Client, conn: Deno.TcpConn): void {
    const handler: Handler = async (request, info) => {
      const started = Date.now();
      client.inHandler.push(started);
      try {
        return await options.handler(request, info);
      } finally {
        removeOne(client.inHandler, started);
        client.answered++;
        // The answer is in flight until Deno has handed its last byte to the socket.
        const handedOver = Date.now();
        client.answering.push(handedOver);
        const sent = () => {
          removeOne(client.answering, handedOver);
          client.idleSince = Date.now();
        };
        info.completed.then(sent, sent);
      }
    };
    serveOnConnection!(conn, client.closer, handler, onError, () => {}).finished
      .catch(() => {}).finally(() => clients.delete(client));
  }

  // A long accept queue: while a flood keeps the process busy, a full queue makes the kernel drop new SYNs
  // and a well-behaved client waits for its 1 s retransmission (capped by net.core.somaxconn).
  const listener = Deno.listen({ hostname: options.hostname, port: options.port, tcpBacklog: 4096 });
  const addr = listener.addr as Deno.NetAddr;
  options.onListen?.(addr);

  /**
   * Turns of the event loop the accept loop has let run (rule 1 counts them). A turn is an immediate, not a
   * timer: I/O runs before it, and on a loaded machine a 1 ms timer came back after 3–4 ms, which held the
   * accept loop idle while a flood filled the accept queue.
   */
  let turn = 0;
  async function nextTurn(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    turn++;
  }

  async function acceptLoop(): Promise<void> {
    for (let accepted = 1; !stopping; accepted++) {
      // Accept only with room: until a connection falls under a rule, new ones wait in the kernel's queue.
      if (!makeRoom()) {
        await sleep(5);
        turn++;
        continue;
      }
      // Waiting accepts complete at once: every 64, let the connections already accepted be read.
      if (accepted % 64 === 0) await nextTurn();
      let conn: Deno.TcpConn;
      try {
        conn = await listener.accept();
      } catch (error) {
        if (stopping || error instanceof Deno.errors.BadResource) return;
        if (isDescriptorExhaustion(error)) {
          // Something else holds descriptors the count does not know of: work below what is in use.
          budgetCut = Math.min(limits.fdBudget - MIN_BUDGET, limits.fdBudget - clients.size + 64);
          warn("out of descriptors accepting");
          await sleep(10);
        } else if (
          !(error instanceof Deno.errors.ConnectionAborted || error instanceof Deno.errors.ConnectionReset)
        ) {
          throw error;
        }
        continue;
      }
      stats.accepted++;
      const client = new Client(turn);
      clients.add(client);
      serve(client, conn);
    }
  }

  const finished = acceptLoop();
  finished.catch(() => clearInterval(sweeper));

  return {
    addr,
    finished,
    async shutdown() {
      stopping = true;
      try {
        listener.close();
      } catch { /* closed already */ }
      // Idle connections close now, those with a request or an answer in flight once it is over, for up to 5 s;
      // then the rest. (Deno's own graceful shutdown cannot be cut short once begun: a body that never ends
      // would hold it.)
      const deadline = Date.now() + 5_000;
      for (;;) {
        for (const c of clients) if (!c.busy()) close(c);
        if (!clients.size || Date.now() > deadline) break;
        await sleep(20);
      }
      for (const c of clients) close(c);
      clearInterval(sweeper);
      await finished.catch(() => {});
    },
    stats: () => ({ open: clients.size, fdBudget: budget(), ...stats }),
  };
}
