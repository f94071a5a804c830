// Dashboard latency against the floors. Seeds testing/seed.ts's data set (1,000,000 visits over 90
// days by default) into a fresh database — PostgreSQL when DATABASE_URL is set, in a schema of its own
// dropped afterwards; else in-memory PGlite — then, through app.request (server time only):
//   - every request of the dashboard's first load, one at a time, RUNS times after warm-ups: p50 and p95,
//     for the default period (this month) and for the last 31 days (a range across two months);
//   - the whole first load: all of those requests fired at once, as the browser does, wall time;
//   - the same under one filter (the busiest channel), two (and its busiest UTM source) and a page filter
//     (the most viewed page): each request of the filtered first load alone, then all at once
//     (docs/ANALYTICS.md, "Filters", says how they are answered);
//   - "Agora" (/api/tracking/live) alone, many times.
// Each row prints the load average (1 minute) when it was measured: the machine may be shared.
//   deno run -A bench/dashboard.ts [--visits 1000000] [--runs 20] [--json] [--schema already_seeded]
//     [--filtered-only]   (skip the unfiltered rows: the filtered first load and "Agora" only)
//     [--unfiltered-only] (skip the filtered first load: at 10,000,000 visits it takes most of an hour)
//     [--filter page]     (one filtered set only: "1 filter", "2 filters" or "page")
// Floors (issue 6): p50 ≤ 50 ms and p95 ≤ 100 ms per endpoint, first load ≤ 300 ms at 1,000,000 visits;
// p95 ≤ 250 ms from 10,000,000 visits. Filtered first load (issue 29): p95 ≤ 300 ms at 1,000,000 visits,
// ≤ 600 ms at 10,000,000. With --json the last stdout line is
// {"rows":[{"name","value","floor","pass"}]} for `deno task bench`.
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { type Db, openDb } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { createApp } from "../src/app.ts";
import { loadLocales } from "../src/server/locales.ts";
import { bootstrapAdmin } from "../src/services/auth.ts";
import { fakeAssets } from "../testing/app.ts";
import { addDays, monthOf, todayIn } from "../src/shared/dashboard_math.ts";
import { runRollups } from "../src/services/rollups.ts";
import { seedAnalytics } from "../testing/seed.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "20" },
    visits: { type: "string", default: "1000000" },
    json: { type: "boolean", default: false },
    // An existing schema that testing/seed.ts already filled (PostgreSQL): measured as is, not dropped.
    schema: { type: "string" },
    "filtered-only": { type: "boolean", default: false },
    "unfiltered-only": { type: "boolean", default: false },
    // One filtered set only, by its label: "1 filter", "2 filters" or "page".
    filter: { type: "string" },
  },
});
const RUNS = Math.max(1, Number(values.runs));
const VISITS = Number(values.visits);
const JSON_OUT = values.json;
const FILTERED_ONLY = values["filtered-only"];
const UNFILTERED_ONLY = values["unfiltered-only"];
/** The 1-minute load average, printed beside each row. */
const load1 = () => Deno.loadavg()[0].toFixed(1);
const ORIGIN = "http://localhost:8000";
const TZ = "America/Sao_Paulo";
const url = Deno.env.get("DATABASE_URL") || undefined;
// Human-readable output goes to stderr with --json, so stdout ends with exactly one JSON line.
const say = (line = "") => (JSON_OUT ? console.error(line) : console.log(line));

let db: Db;
let cleanup = async () => {};
let seededNote: string;
if (url && values.schema) {
  if (!/^[a-z_][a-z0-9_]*$/.test(values.schema)) throw new Error("--schema: a plain name");
  db = await openDb({ databaseUrl: url, schema: values.schema });
  await migrate(db); // new migrations apply to the seeded data too
  const t0 = performance.now();
  await runRollups(db, TZ, new Date()); // as the server's job would, by now
  const rollUpSeconds = (performance.now() - t0) / 1000;
  cleanup = () => db.close();
  const n = (await db.query<{ n: number }>("select count(*)::int as n from visits"))[0].n;
  seededNote = `existing schema ${values.schema}: ${n} visits, roll-ups brought up to date in ${
    rollUpSeconds.toFixed(1)
  } s`;
} else {
  let schema = "";
  if (url) {
    schema = `bench_${Date.now()}`;
    const admin = await openDb({ databaseUrl: url, max: 1 });
    await admin.exec(`create schema ${schema}`);
    // The pool size main.ts uses (postgres.js default 10).
    db = await openDb({ databaseUrl: url, schema });
    cleanup = async () => {
      await db.close();
      await admin.exec(`drop schema ${schema} cascade`);
      await admin.close();
    };
  } else {
    db = await openDb({});
    cleanup = () => db.close();
  }
  await migrate(db);
  const seeded = await seedAnalytics(db, {
    visits: VISITS,
    timeZone: TZ,
    copy: url ? { url, schema } : undefined,
  });
  seededNote =
    `seeded ${seeded.visits} visits (${seeded.visitorKeys} visitor keys), ${seeded.clicks} plan clicks, ` +
    `${seeded.whatsappClicks} WhatsApp clicks, ` +
    `${seeded.conversions} conversions, ${seeded.leads} leads, ${seeded.start} to ${seeded.end}: ` +
    `rows in ${seeded.writeSeconds.toFixed(1)} s, roll-ups in ${seeded.rollUpSeconds.toFixed(1)} s`;
}

try {
  const config = loadConfig({ PUBLIC_ORIGIN: ORIGIN, LOG_LEVEL: "warn", ANALYTICS_TZ: TZ });
  const app = await createApp({ config, db, assets: fakeAssets, locales: await loadLocales() });
  await bootstrapAdmin(db, "bench@example.com", "bench-password");
  const login = await app.request("/api/admin/login", {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN },
    body: JSON.stringify({ email: "bench@example.com", password: "bench-password" }),
  });
  const cookie = login.headers.getSetCookie()[0].split(";")[0];
  const totalVisits = (await db.query<{ n: number }>("select count(*)::int as n from visits"))[0].n;

  // The requests the dashboard makes when it opens (src/ui/admin/queries.ts; the lead list shows 25).
  const firstLoad = (start: string, end: string, filters = "") => {
    const r = `startDate=${start}&endDate=${end}${filters ? "&" + filters : ""}`;
    return [
      "/api/admin/check-auth",
      `/api/tracking/summary?${r}`,
      `/api/tracking/stats?${r}`,
      `/api/leads/analytics?${r}`,
      `/api/tracking/analytics?${r}`,
      `/api/tracking/unique-visits?${r}`,
      `/api/leads?${r}&limit=25&offset=0`,
      `/api/tracking/rankings/utm-source?${r}`,
      `/api/tracking/rankings/utm-campaign?${r}`,
      `/api/tracking/rankings/pages?${r}`,
      `/api/tracking/conversion-by-utm-source?${r}`,
      // Issue 18: channels (also read by conversion by channel), sources with referrers, landing pages.
      `/api/tracking/channels?${r}`,
      `/api/tracking/rankings/sources?${r}`,
      `/api/tracking/rankings/entry-pages?${r}`,
      // Issue 29: WhatsApp clicks (card, funnel, columns, pages, chart series); a one-day period by the hour.
      `/api/tracking/whatsapp?${r}`,
      ...(start === end ? [`/api/tracking/hourly?date=${start}`] : []),
      // Issue 29: visits, page views, bounce rate and durations; time on page.
      `/api/tracking/engagement?${r}`,
      `/api/tracking/rankings/page-time?${r}`,
      // "Agora" (the visitors of the last 5 minutes), asked with the first load and then every 30 s.
      "/api/tracking/live",
    ];
  };
  // Issue 29: creatives and keywords, read from the raw rows and asked when their cards come near the
  // screen (not in the first load): timed alone.
  const belowTheFold = (start: string, end: string) => {
    const r = `startDate=${start}&endDate=${end}`;
    return [
      `/api/tracking/rankings/utm-content?${r}`,
      `/api/tracking/rankings/utm-term?${r}`,
      // Issue 30: who the visitors are (docs/AUDIENCE.md), also asked when their cards come near the screen.
      ...["device", "browser", "os", "country", "region"].map((d) => `/api/tracking/audience/${d}?${r}`),
      `/api/tracking/lead-states?${r}`,
    ];
  };
  const today = todayIn(TZ);
  const periods = [
    { label: "this month", ...monthOf(today) },
    { label: "last 31 days", start: addDays(today, -30), end: today },
    { label: "today", start: today, end: today },
  ];

  const get = async (path: string) => {
    const res = await app.request(path, { headers: { cookie } });
    const body = await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${new TextDecoder().decode(body)}`);
    return body.byteLength;
  };
  const pct = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  const big = totalVisits >= 5_000_000;
  const floors = big ? { p50: Infinity, p95: 250, load: Infinity } : { p50: 50, p95: 100, load: 300 };
  const floorText = big ? "p95 ≤ 250 ms" : "p50 ≤ 50 ms, p95 ≤ 100 ms";
  const rows: { name: string; value: string; floor: string; pass: boolean }[] = [];
  const f = (n: number) => n.toFixed(1);

  say(
    `database: ${db.kind}; ${seededNote}; ${totalVisits} visits in all; load average ${
      Deno.loadavg().join(" ")
    }`,
  );
  say(`${RUNS} timed runs after 3 warm-ups; server time through app.request\n`);
  say("| period | request | p50 ms | p95 ms | max ms | bytes | load | floor | pass |");
  say("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |");
  for (const period of FILTERED_ONLY ? [] : periods) {
    for (const path of [...firstLoad(period.start, period.end), ...belowTheFold(period.start, period.end)]) {
      let bytes = 0;
      const times: number[] = [];
      for (let i = 0; i < RUNS + 3; i++) {
        const t0 = performance.now();
        bytes = await get(path);
        if (i >= 3) times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const p50 = pct(times, 50);
      const p95 = pct(times, 95);
      const pass = p50 <= floors.p50 && p95 <= floors.p95;
      const name = path.split("?")[0] + (path.includes("limit=") ? " (page 1)" : "");
      say(
        `| ${period.label} | ${name} | ${f(p50)} | ${f(p95)} | ${
          f(times.at(-1)!)
        } | ${bytes} | ${load1()} | ${floorText} | ${pass ? "PASS" : "FAIL"} |`,
      );
      rows.push({
        name: `${name}, ${period.label} (${period.start}..${period.end})`,
        value: `p50 ${f(p50)} ms, p95 ${f(p95)} ms`,
        floor: floorText,
        pass,
      });
    }
  }
  // "Agora" is polled every 30 s by every open dashboard: its own floor, p95 ≤ 20 ms from the raw rows.
  {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS * 5 + 3; i++) {
      const t0 = performance.now();
      bytes = await get("/api/tracking/live");
      if (i >= 3) times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const p50 = pct(times, 50);
    const p95 = pct(times, 95);
    const pass = p95 <= 20;
    say(
      `| Agora (${times.length} runs) | /api/tracking/live | ${f(p50)} | ${f(p95)} | ${
        f(times.at(-1)!)
      } | ${bytes} | ${load1()} | p95 ≤ 20 ms | ${pass ? "PASS" : "FAIL"} |`,
    );
    rows.push({
      name: "Agora, /api/tracking/live",
      value: `p50 ${f(p50)} ms, p95 ${f(p95)} ms`,
      floor: "p95 ≤ 20 ms",
      pass,
    });
  }
  say();
  say(
    "| period | whole first load (all requests at once) | p50 ms | p95 ms | max ms | load | floor | pass |",
  );
  say("| --- | --- | ---: | ---: | ---: | ---: | --- | --- |");
  for (const period of FILTERED_ONLY ? [] : periods) {
    const paths = firstLoad(period.start, period.end);
    const times: number[] = [];
    for (let i = 0; i < RUNS + 3; i++) {
      const t0 = performance.now();
      await Promise.all(paths.map(get));
      if (i >= 3) times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const p50 = pct(times, 50);
    const p95 = pct(times, 95);
    const pass = p95 <= floors.load;
    const floor = Number.isFinite(floors.load) ? `p95 ≤ ${floors.load} ms` : "none at this size";
    say(
      `| ${period.label} | ${paths.length} requests | ${f(p50)} | ${f(p95)} | ${
        f(times.at(-1)!)
      } | ${load1()} | ${floor} | ${pass ? "PASS" : "FAIL"} |`,
    );
    rows.push({
      name: `whole first load, ${paths.length} requests at once, ${period.label}`,
      value: `p50 ${f(p50)} ms, p95 ${f(p95)} ms`,
      floor,
      pass,
    });
  }
  // Filtered first load: the busiest channel of this month, then also its busiest UTM source; the most
  // viewed page of the month.
  const month = monthOf(today);
  const top = await db.query<{ channel: string; utm_source: string | null }>(
    `select channel, (select utm_source from visits w
                       where w.channel = v.channel and w.occurred_at >= $1::date and w.utm_source is not null
                       group by 1 order by count(*) desc limit 1) as utm_source
       from visits v where occurred_at >= $1::date and channel is not null
      group by channel order by count(*) desc limit 1`,
    [month.start],
  );
  const topPage = await db.query<{ source: string }>(
    `select source from visits where occurred_at >= $1::date group by 1 order by count(*) desc limit 1`,
    [month.start],
  );
  const filterSets = UNFILTERED_ONLY ? [] : [
    ...(top.length ? [{ label: "1 filter", q: `f_channel=${top[0].channel}` }] : []),
    ...(top[0]?.utm_source
      ? [{
        label: "2 filters",
        q: `f_channel=${top[0].channel}&f_utm_source=${encodeURIComponent(top[0].utm_source)}`,
      }]
      : []),
    ...(topPage.length ? [{ label: "page", q: `f_page=${encodeURIComponent(topPage[0].source)}` }] : []),
  ].filter((set) => !values.filter || set.label === values.filter);
  const filteredFloor = big ? 600 : 300;
  const summaries: string[] = [];
  for (const set of filterSets) {
    const paths = firstLoad(month.start, month.end, set.q);
    say();
    say(`| filtered (${set.label}: ${set.q}), this month | p50 ms | p95 ms | max ms | load | floor | pass |`);
    say("| --- | ---: | ---: | ---: | ---: | --- | --- |");
    // Each request alone, then the whole load at once.
    let slowest = { path: "", p95: 0 };
    for (const path of paths) {
      const times: number[] = [];
      for (let i = 0; i < RUNS + 3; i++) {
        const t0 = performance.now();
        await get(path);
        if (i >= 3) times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const p50 = pct(times, 50);
      const p95 = pct(times, 95);
      const name = path.split("?")[0] + (path.includes("limit=") ? " (page 1)" : "");
      const pass = p95 <= floors.p95;
      say(
        `| ${name} | ${f(p50)} | ${f(p95)} | ${f(times.at(-1)!)} | ${load1()} | p95 ≤ ${floors.p95} ms | ${
          pass ? "PASS" : "FAIL"
        } |`,
      );
      rows.push({
        name: `${name}, filtered (${set.label}: ${set.q}), this month`,
        value: `p50 ${f(p50)} ms, p95 ${f(p95)} ms`,
        floor: `p95 ≤ ${floors.p95} ms`,
        pass,
      });
      if (p95 > slowest.p95) slowest = { path: name, p95 };
    }
    const times: number[] = [];
    for (let i = 0; i < RUNS + 3; i++) {
      const t0 = performance.now();
      await Promise.all(paths.map(get));
      if (i >= 3) times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const p50 = pct(times, 50);
    const p95 = pct(times, 95);
    const pass = p95 <= filteredFloor;
    const line = `| ${set.label} | ${set.q} | ${paths.length} | ${f(p50)} | ${f(p95)} | ${
      f(times.at(-1)!)
    } | ${slowest.path} ${f(slowest.p95)} | ${load1()} | p95 ≤ ${filteredFloor} ms | ${
      pass ? "PASS" : "FAIL"
    } |`;
    say(
      `| whole filtered first load, all at once | ${f(p50)} | ${f(p95)} | ${
        f(times.at(-1)!)
      } | ${load1()} | ` +
        `p95 ≤ ${filteredFloor} ms | ${pass ? "PASS" : "FAIL"} |`,
    );
    summaries.push(line);
    rows.push({
      name: `filtered first load (${set.label}: ${set.q}), ${paths.length} requests at once, this month`,
      value: `p50 ${f(p50)} ms, p95 ${f(p95)} ms; slowest request ${slowest.path} p95 ${f(slowest.p95)} ms`,
      floor: `p95 ≤ ${filteredFloor} ms`,
      pass,
    });
  }
  say();
  say(
    "| filtered first load, this month | filters | requests | p50 ms | p95 ms | max ms | slowest request p95 | load | floor | pass |",
  );
  say("| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | --- | --- |");
  for (const line of summaries) say(line);
  say(`\nload average after: ${Deno.loadavg().join(" ")}`);
  const failed = rows.filter((r) => !r.pass).length;
  say(failed ? `${failed} of ${rows.length} rows FAIL their floor` : `all ${rows.length} rows PASS`);
  if (JSON_OUT) console.log(JSON.stringify({ rows }));
} finally {
  await cleanup();
}
