// Three event tables or one (issue 21): on a schema testing/seed.ts filled, builds `events_merged`, one table
// holding the visits, clicks and conversions with a `kind` column (indexed on occurred_at and on
// (kind, occurred_at)), then times the statements that read or delete raw events both ways, the three-table
// form as the app runs it (src/db/rollups.ts, src/db/dashboard_queries.ts, src/db/retention.ts) and the one-table
// form a merge would need. PostgreSQL only; the copy is dropped at the end (`--keep` keeps it).
//   DATABASE_URL=postgres://… deno run -A testing/seed.ts --visits 10000000 --schema s10m
//   DATABASE_URL=postgres://… deno run -A bench/event_tables.ts --schema s10m [--runs 5] [--keep] [--reuse] [--quick]
import { parseArgs } from "node:util";
import { openDb } from "../src/db/client.ts";
import { EVENT_COLUMNS } from "../src/db/event_columns.ts";
import { addDays, todayIn } from "../src/shared/dashboard_math.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    schema: { type: "string" },
    runs: { type: "string", default: "5" },
    keep: { type: "boolean", default: false },
    // Use the events_merged a --keep run left, instead of building it again (minutes at 10,000,000 visits).
    reuse: { type: "boolean", default: false },
    // Only the statements of the periodic jobs and the dashboard, not the 90-day backlog.
    quick: { type: "boolean", default: false },
  },
});
const url = Deno.env.get("DATABASE_URL");
if (!url || !values.schema || !/^[a-z_][a-z0-9_]*$/.test(values.schema)) {
  throw new Error("DATABASE_URL and --schema (a schema testing/seed.ts filled) are required");
}
/** Thrown to roll back a timed delete. */
class RollBack extends Error {}

const RUNS = Math.max(1, Number(values.runs));
const TZ = "America/Sao_Paulo";
const db = await openDb({ databaseUrl: url, schema: values.schema, max: 1 });
const say = console.log;

// Every event column; a table without one of them (clicks and conversions lack the visit-only ones) gives null.
const SQL_TYPE = { text: "text", "text[]": "text[]", epoch: "timestamptz", flag: "boolean", int: "integer" };
const present: Record<string, Set<string>> = {};
for (const table of ["visits", "clicks", "conversions"]) {
  present[table] = new Set((await db.query<{ column_name: string }>(
    "select column_name from information_schema.columns where table_schema = current_schema() and table_name = $1",
    [table],
  )).map((r) => r.column_name));
}
const armOf = (table: string, kind: string) =>
  `select '${kind}'::text as kind, ${
    EVENT_COLUMNS.map((
      c,
    ) => (present[table].has(c.name) ? c.name : `null::${SQL_TYPE[c.packing]} as ${c.name}`))
      .join(", ")
  } from ${table}`;

say(`load average ${Deno.loadavg().join(" ")}`);
let t0 = performance.now();
const exists = (await db.query<{ t: string | null }>("select to_regclass('events_merged')::text as t"))[0].t;
if (values.reuse && exists) {
  say("reusing events_merged");
} else {
  await db.exec("drop table if exists events_merged");
  await db.exec(
    `create table events_merged as
       ${armOf("visits", "visit")} union all ${armOf("clicks", "click")} union all ${
      armOf("conversions", "conversion")
    }`,
  );
  await db.exec("create index events_merged_occurred_at_idx on events_merged (occurred_at)");
  await db.exec("create index events_merged_kind_occurred_at_idx on events_merged (kind, occurred_at)");
  await db.exec("vacuum analyze events_merged");
  await db.exec("vacuum analyze visits");
  await db.exec("vacuum analyze clicks");
  await db.exec("vacuum analyze conversions");
  say(`merged copy built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

const [counts] = await db.query<Record<string, number>>(
  `select (select count(*) from visits)::int as visits, (select count(*) from clicks)::int as clicks,
          (select count(*) from conversions)::int as conversions`,
);
const sizes = await db.query<{ rel: string; mb: number }>(
  `select rel, round(pg_total_relation_size(rel::regclass) / 1048576.0, 1)::float8 as mb
     from unnest(array['visits', 'clicks', 'conversions', 'events_merged']) rel`,
);
say(`rows: ${JSON.stringify(counts)}`);
say(
  `size with indexes (MB): ${sizes.map((s) => `${s.rel} ${s.mb}`).join(", ")}; three tables ${
    sizes.filter((s) => s.rel !== "events_merged").reduce((a, s) => a + s.mb, 0).toFixed(1)
  }`,
);

const today = todayIn(TZ);
const yesterday = addDays(today, -1);
const first = (await db.query<{ day: string }>(
  `select to_char((min(occurred_at) at time zone $1)::date, 'YYYY-MM-DD') as day from visits`,
  [TZ],
))[0].day;
// $1 first day, $2 end instant, $3 time zone: the roll-up job's span (src/db/rollups.ts).
const SPAN = "occurred_at >= ($1::date::timestamp at time zone $3) and occurred_at < $2";
const DAY = "(occurred_at at time zone $3)::date";

const cases: { name: string; params: unknown[]; three: string; one: string; rollback?: boolean }[] = [];
const spans = [
  { label: "one day (the job's usual run)", from: yesterday, until: `${today}T03:00:00Z` },
  ...(values.quick ? [] : [
    { label: `all ${first}..${today} (a backlog)`, from: first, until: new Date().toISOString() },
  ]),
];
for (const span of spans) {
  cases.push({
    name: `roll-up totals, ${span.label}`,
    params: [span.from, span.until, TZ],
    three: `select day, sum(v), sum(u), sum(c), sum(k) from (
        select ${DAY} as day, count(*) as v, count(distinct visitor_key) as u, 0 as c, 0 as k
          from visits where ${SPAN} group by 1
        union all select ${DAY}, 0, 0, count(*), 0 from clicks where ${SPAN} group by 1
        union all select ${DAY}, 0, 0, 0, count(*) from conversions where ${SPAN} group by 1) t group by day`,
    one: `select ${DAY} as day, count(*) filter (where kind = 'visit'),
        count(distinct visitor_key) filter (where kind = 'visit'), count(*) filter (where kind = 'click'),
        count(*) filter (where kind = 'conversion') from events_merged where ${SPAN} group by 1`,
  });
  cases.push({
    name: `roll-up channel actions, ${span.label}`,
    params: [span.from, span.until, TZ],
    three: `select day, channel, sum(c), sum(k) from (
        select ${DAY} as day, channel, 1 as c, 0 as k from clicks where ${SPAN} and channel is not null
        union all select ${DAY}, channel, 0, 1 from conversions where ${SPAN} and channel is not null) t
      group by 1, 2`,
    one: `select ${DAY} as day, channel, count(*) filter (where kind = 'click'),
        count(*) filter (where kind = 'conversion') from events_merged
       where kind in ('click', 'conversion') and ${SPAN} and channel is not null group by 1, 2`,
  });
}
// The dashboard's raw part: events after the watermark (at most a few minutes of them).
cases.push({
  name: "dashboard raw tail: clicks and conversions of the last 5 minutes",
  params: [new Date(Date.now() - 5 * 60_000).toISOString()],
  three: `select (select count(*) from clicks where occurred_at >= $1)::int as c,
                 (select count(*) from conversions where occurred_at >= $1)::int as k`,
  one: `select (count(*) filter (where kind = 'click'))::int as c,
               (count(*) filter (where kind = 'conversion'))::int as k
          from events_merged where occurred_at >= $1 and kind in ('click', 'conversion')`,
});
// Retention's purge of the oldest day (rolled back).
cases.push({
  name: `retention purge of the oldest day (${first}), rolled back`,
  params: [addDays(first, 1), TZ],
  rollback: true,
  three: `with ${
    ["visits", "clicks", "conversions"].map((t) =>
      `d_${t} as (delete from ${t} where occurred_at < ($1::date::timestamp at time zone $2) returning 1)`
    ).join(", ")
  } select (select count(*) from d_visits) + (select count(*) from d_clicks)
      + (select count(*) from d_conversions)`,
  one:
    `with d as (delete from events_merged where occurred_at < ($1::date::timestamp at time zone $2) returning 1)
        select count(*) from d`,
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
say(`\n${RUNS} runs each after one warm-up, alternating; median ms\n`);
say("| statement | three tables | one table | one / three |");
say("| --- | ---: | ---: | ---: |");
for (const c of cases) {
  const times = { three: [] as number[], one: [] as number[] };
  for (let i = 0; i <= RUNS; i++) {
    for (const form of ["three", "one"] as const) {
      t0 = performance.now();
      if (c.rollback) {
        await db.transaction(async (tx) => {
          await tx.query(c[form], c.params);
          throw new RollBack();
        }).catch((e) => {
          if (!(e instanceof RollBack)) throw e;
        });
      } else {
        await db.query(c[form], c.params);
      }
      if (i > 0) times[form].push(performance.now() - t0);
    }
  }
  const three = median(times.three), one = median(times.one);
  say(`| ${c.name} | ${three.toFixed(1)} | ${one.toFixed(1)} | ${(one / three).toFixed(2)} |`);
}
say(`\nload average after: ${Deno.loadavg().join(" ")}`);
if (!values.keep) await db.exec("drop table events_merged");
await db.close();
