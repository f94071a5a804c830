// Load for fault tests: simulated browsers sending tracking events and leads to a real server, recording every
// answer. Lead browsers behave like src/browser_logic/lead_outbox.ts: a lead that was not accepted stays in the
// browser's outbox and is sent again later with the same idempotency key.

export const LOAD_ORIGIN = "http://localhost:8000"; // PUBLIC_ORIGIN the server under test is given
const BROWSER_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36";

export interface Answer {
  kind: "visit" | "lead";
  /** HTTP status, or 0 when the request failed without an answer. */
  status: number;
  /** When it was sent (ms since the epoch) and how long the answer took. */
  at: number;
  ms: number;
  /** The lead's idempotency key. */
  key?: string;
}

export interface Load {
  answers: Answer[];
  /** Leads each browser still holds (not yet accepted), by idempotency key. */
  outbox: Map<string, Record<string, unknown>>;
  /** Every lead ever created, by idempotency key. */
  created: Map<string, Record<string, unknown>>;
  /** Stops the loops and waits for every request in flight. */
  stop(): Promise<void>;
}

let address = 0;
/** A new client address per request (the server runs with TRUST_PROXY=1), so no rate limit is reached. */
function nextAddress(): string {
  address++;
  return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
}

/** Sends one request and records its answer (status 0 for a network failure or a 10 s timeout). */
export async function send(
  origin: string,
  path: string,
  body: unknown,
  kind: Answer["kind"],
  key?: string,
): Promise<Answer> {
  const at = Date.now();
  let status = 0;
  try {
    const res = await fetch(origin + path, {
      method: "POST",
      body: JSON.stringify(body),
      headers: {
        "content-type": "application/json",
        origin: LOAD_ORIGIN,
        "user-agent": BROWSER_UA,
        "x-forwarded-for": nextAddress(),
      },
      signal: AbortSignal.timeout(10_000),
    });
    await res.body?.cancel();
    status = res.status;
  } catch {
    status = 0;
  }
  return { kind, status, at, ms: Date.now() - at, key };
}

const accepted = (status: number) => status === 200 || status === 201;

/**
 * Starts `visitors` loops posting tracking visits, each waiting `visitEveryMs` after an answer (default 0: back
 * to back, as fast as the server answers), and `browsers` loops creating a lead every `leadEveryMs`, each lead
 * kept in its browser's outbox until the server accepts it.
 */
export function startLoad(
  origin: string,
  options: { visitors: number; browsers: number; leadEveryMs: number; visitEveryMs?: number },
): Load {
  let running = true;
  const answers: Answer[] = [];
  const outbox = new Map<string, Record<string, unknown>>();
  const created = new Map<string, Record<string, unknown>>();
  const visitBody = { source: "/pt-br", sessionId: "fault-load", utmSource: "faults", utmCampaign: null };

  const visitor = async () => {
    while (running) {
      answers.push(await send(origin, "/api/tracking/visit", visitBody, "visit"));
      if (options.visitEveryMs) await new Promise((resolve) => setTimeout(resolve, options.visitEveryMs));
    }
  };
  const browser = async (b: number) => {
    for (let n = 0; running; n++) {
      const key = `fault-${b}-${n}-${crypto.randomUUID().slice(0, 8)}`;
      const lead = {
        name: `Browser ${b} lead ${n}`,
        email: `b${b}.n${n}@example.com`,
        whatsapp: "+55 11 91234-5678",
        plan: "pro",
        utmSource: "faults",
        idempotencyKey: key,
      };
      created.set(key, lead);
      outbox.set(key, lead);
      const answer = await send(origin, "/api/leads", lead, "lead", key);
      answers.push(answer);
      if (accepted(answer.status)) outbox.delete(key);
      await new Promise((resolve) => setTimeout(resolve, options.leadEveryMs));
    }
  };
  const loops = [
    ...Array.from({ length: options.visitors }, visitor),
    ...Array.from({ length: options.browsers }, (_, b) => browser(b)),
  ];
  return {
    answers,
    outbox,
    created,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/**
 * Re-sends every lead still in an outbox (same idempotency key) until accepted or `deadlineMs` passes, eight at
 * a time, as the browsers holding them would each send their own (one after another, hundreds of leads left by
 * an outage took about 6 s).
 */
export async function drainOutbox(origin: string, load: Load, deadlineMs = 30_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (load.outbox.size && Date.now() < deadline) {
    const queue = [...load.outbox];
    const sender = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [key, lead] = next;
        const answer = await send(origin, "/api/leads", lead, "lead", key);
        load.answers.push(answer);
        if (accepted(answer.status)) load.outbox.delete(key);
      }
    };
    await Promise.all(Array.from({ length: 8 }, sender));
    if (load.outbox.size) await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Answers counted by kind and status, e.g. { "visit 202": 812, "lead 503": 40 }. */
export function countAnswers(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[`${a.kind} ${a.status}`] = (counts[`${a.kind} ${a.status}`] ?? 0) + 1;
  return counts;
}
