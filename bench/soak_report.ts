// Counting and reporting for bench/soak.ts: answers by kind and status with latencies, the server's resident
// memory over time, and the verdict.

export type Kind = "page" | "asset" | "visit" | "click" | "conversion" | "lead" | "dashboard";

/** Answers by kind: status counts and latencies (status 0: no answer within 10 s, or a network error). */
export class Tally {
  late = 0;
  readonly statuses = new Map<Kind, Map<number, number>>();
  readonly latencies = new Map<Kind, number[]>();

  add(kind: Kind, status: number, ms: number): void {
    const counts = this.statuses.get(kind) ?? new Map<number, number>();
    counts.set(status, (counts.get(status) ?? 0) + 1);
    this.statuses.set(kind, counts);
    const list = this.latencies.get(kind) ?? [];
    list.push(ms);
    this.latencies.set(kind, list);
  }

  status(kind: Kind, status: number): number {
    return this.statuses.get(kind)?.get(status) ?? 0;
  }

  /** Answers with a status matching `test`, over every kind. */
  count(test: (status: number) => boolean): number {
    let n = 0;
    for (const counts of this.statuses.values()) {
      for (const [status, c] of counts) if (test(status)) n += c;
    }
    return n;
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;

/** Samples VmRSS (MB) of `pid` every `everyMs`, with the time of each sample in minutes since the start. */
export function rssSampler(pid: number, everyMs: number) {
  const samples: { minute: number; mb: number }[] = [];
  const t0 = performance.now();
  const sample = () => {
    try {
      const status = Deno.readTextFileSync(`/proc/${pid}/status`);
      const kb = Number(status.match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? 0);
      samples.push({ minute: (performance.now() - t0) / 60_000, mb: kb / 1024 });
    } catch {
      // the process is gone
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return samples;
    },
  };
}

/**
 * The server's live JavaScript heap after a full garbage collection, in MB, through its inspector (the server
 * runs with --inspect on a loopback port). RSS alone cannot tell a leak from a heap V8 has not collected yet:
 * it grows for minutes while major collections are deferred, then levels off.
 */
export async function liveHeapMb(inspectorPort: number): Promise<number> {
  const [target] = await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json();
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => (ws.onopen = resolve, ws.onerror = reject));
  let id = 0;
  const call = (method: string) =>
    new Promise<Record<string, number>>((resolve) => {
      const mine = ++id;
      ws.addEventListener("message", function onMessage(event) {
        const message = JSON.parse(event.data);
        if (message.id !== mine) return;
        ws.removeEventListener("message", onMessage);
        resolve(message.result);
      });
      ws.send(JSON.stringify({ id: mine, method }));
    });
  try {
    await call("HeapProfiler.collectGarbage");
    return (await call("Runtime.getHeapUsage")).usedSize / 1024 / 1024;
  } finally {
    ws.close();
  }
}

/** Least-squares slope, MB per minute. */
function slope(points: { minute: number; mb: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p.minute, 0) / n;
  const my = points.reduce((s, p) => s + p.mb, 0) / n;
  const num = points.reduce((s, p) => s + (p.minute - mx) * (p.mb - my), 0);
  const den = points.reduce((s, p) => s + (p.minute - mx) ** 2, 0);
  return den ? num / den : 0;
}

// Memory is flat when the live heap after a full collection at the end is within 10% + 4 MB of the same
// figure after the warm-up (caches fill during the warm-up, so growth before it is reported, not judged).
// RSS is reported with its slope over the second half: it includes heap V8 has not collected yet.
const flatHeap = (warm: number, end: number) => end <= warm * 1.1 + 4;

export interface SoakInput {
  tally: Tally;
  memory: { minute: number; mb: number }[];
  /** Live heap after a full collection, after the warm-up and at the end (MB). */
  heap: { warm: number; end: number };
  exitCode: number;
  minutes: number;
  rate: number;
  db: string;
  leads: { accepted: number; lost: number; doubled: number };
  visits: { acknowledged: number; stored: number };
}

/** When the warm-up ends: a tenth of the run, and at least a minute (half of a run shorter than two). */
export function warmMinute(minutes: number): number {
  return Math.max(minutes * 0.1, Math.min(1, minutes / 2));
}

export function summarize(input: SoakInput) {
  const { tally, memory } = input;
  const warmAt = warmMinute(input.minutes);
  const warm = memory.find((s) => s.minute >= warmAt) ?? memory[0];
  const start = memory[0];
  const end = memory.at(-1)!;
  const secondHalf = memory.filter((s) => s.minute >= end.minute / 2);
  const memorySlope = slope(secondHalf);
  // A run of a minute or two says little about growth: shorter runs report memory without a verdict.
  const flat = input.minutes < 2 ? null : flatHeap(input.heap.warm, input.heap.end);
  const requests = tally.count(() => true);
  const serverErrors = tally.count((s) => s >= 500);
  const noAnswer = tally.count((s) => s === 0);
  const rows: string[][] = [];
  const kinds: Record<string, unknown> = {};
  for (const [kind, counts] of tally.statuses) {
    const sorted = [...(tally.latencies.get(kind) ?? [])].sort((a, b) => a - b);
    const byStatus = Object.fromEntries([...counts].sort((a, b) => a[0] - b[0]));
    const p50 = percentile(sorted, 50), p99 = percentile(sorted, 99);
    kinds[kind] = { requests: sorted.length, statuses: byStatus, p50Ms: p50, p99Ms: p99 };
    rows.push([kind, String(sorted.length), JSON.stringify(byStatus), p50.toFixed(1), p99.toFixed(1)]);
  }
  const figures = {
    db: input.db,
    minutes: input.minutes,
    rate: input.rate,
    requests,
    achievedRate: requests / (input.minutes * 60),
    late: tally.late,
    serverErrors,
    noAnswer,
    kinds,
    rssMb: {
      start: start.mb,
      warm: warm.mb,
      warmAtMinute: warm.minute,
      end: end.mb,
      max: Math.max(...memory.map((s) => s.mb)),
      slopeSecondHalfMbPerMin: memorySlope,
      // One sample a minute, to see whether growth levels off.
      byMinute: memory.filter((_, i) => i % 12 === 0).map((s) => Math.round(s.mb)),
    },
    liveHeapMb: input.heap,
    memoryFlat: flat,
    leads: input.leads,
    visits: input.visits,
    serverExitCode: input.exitCode,
  };
  const pass = serverErrors === 0 && noAnswer === 0 && input.leads.lost === 0 && input.leads.doubled === 0 &&
    input.visits.stored >= input.visits.acknowledged && input.exitCode === 0 && flat !== false;
  const mb = (n: number) => `${n.toFixed(1)} MB`;
  const text = [
    `soak on ${input.db}: ${input.minutes} min at ${input.rate} requests/s — ${requests} requests ` +
    `(${
      figures.achievedRate.toFixed(1)
    }/s), ${tally.late} late, ${serverErrors} 5xx, ${noAnswer} without answer`,
    "",
    "| kind | requests | statuses | p50 ms | p99 ms |",
    "| --- | ---: | --- | ---: | ---: |",
    ...rows.map((r) => `| ${r.join(" | ")} |`),
    "",
    `server RSS: start ${mb(start.mb)}, warm (${warm.minute.toFixed(1)} min) ${mb(warm.mb)}, end ${
      mb(end.mb)
    }, ` +
    `max ${mb(figures.rssMb.max)}, second-half slope ${memorySlope.toFixed(2)} MB/min`,
    `live heap after a full collection: warm ${mb(input.heap.warm)}, end ${mb(input.heap.end)} — ` +
    (flat === null ? "not judged (under 2 min)" : flat ? "flat" : "NOT FLAT"),
    `leads accepted ${input.leads.accepted}, lost ${input.leads.lost}, stored twice ${input.leads.doubled}; ` +
    `visits acknowledged ${input.visits.acknowledged}, stored ${input.visits.stored}; server exit ${input.exitCode}`,
    pass ? "PASS" : "FAIL",
  ].join("\n");
  return { text, figures, pass };
}
