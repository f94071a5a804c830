// Unique visitors over any period (docs/UNIQUE_VISITORS.md), as a property over random periods of a seeded
// database: 400 addresses visit on random days from April to November 2026 (São Paulo), each visit stored
// with its month's key and its link keys for the next months, as the server stores them; then everything is
// rolled up. Whatever the period:
// - up to 62 days, the figure is the exact count of addresses;
// - it is never below the exact count of any sub-period of up to 62 days inside it (nor of the whole period);
// - it is monotone: a period containing another never shows fewer visitors;
// - it is continuous at 62 days: one more day adds at most that day's visitors.
import assert from "node:assert/strict";
import { appTest } from "../../testing/app.ts";
import { sp } from "../../testing/analytics_fixture.ts";
import { visitorTotals } from "../db/unique_visitors.ts";
import { addDays, daysInclusive, EXACT_VISITOR_DAYS } from "../shared/dashboard_math.ts";
import { runRollups } from "./rollups.ts";
import { linkMonths } from "./visitor_key.ts";

const TZ = "America/Sao_Paulo";
const FIRST = "2026-04-01";
const LAST = "2026-11-25";
const SPAN = daysInclusive(FIRST, LAST);
const EARLIEST = "2026-01-01";

/** mulberry32: a small seeded generator, so a failure names a reproducible case. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = 20261126;

/** Address -> the days it visited: regulars over months, occasional visitors, some returning after months. */
function population(rand: () => number): Map<string, Set<string>> {
  const visits = new Map<string, Set<string>>();
  for (let i = 0; i < 100; i++) {
    const days = new Set<string>();
    const from = Math.floor(rand() * SPAN * 0.6);
    const to = Math.min(SPAN - 1, from + 60 + Math.floor(rand() * SPAN));
    for (let day = from; day <= to; day += 1 + Math.floor(rand() * 10)) days.add(addDays(FIRST, day));
    visits.set(`r${i}`, days);
  }
  for (let i = 0; i < 400; i++) {
    const days = new Set<string>();
    const home = Math.floor(rand() * SPAN);
    const count = 1 + Math.floor(rand() * rand() * 12);
    for (let k = 0; k < count; k++) {
      // Mostly near the first visit, sometimes anywhere in the eight months.
      const offset = rand() < 0.8 ? Math.floor((rand() - 0.3) * 90) : Math.floor(rand() * SPAN) - home;
      const day = Math.min(SPAN - 1, Math.max(0, home + offset));
      days.add(addDays(FIRST, day));
    }
    visits.set(`a${i}`, days);
  }
  return visits;
}

/** Addresses that visited on `day` and not in the 61 days before it, nor from `start` on. */
function newOn(visits: Map<string, Set<string>>, start: string, day: string): number {
  const from = addDays(day, -(EXACT_VISITOR_DAYS - 1)) > start
    ? addDays(day, -(EXACT_VISITOR_DAYS - 1))
    : start;
  let n = 0;
  for (const days of visits.values()) {
    if (days.has(day) && exact(new Map([["", days]]), from, addDays(day, -1)) === 0) n++;
  }
  return n;
}

function exact(visits: Map<string, Set<string>>, start: string, end: string): number {
  let n = 0;
  for (const days of visits.values()) {
    for (const day of days) {
      if (day >= start && day <= end) {
        n++;
        break;
      }
    }
  }
  return n;
}

appTest(
  "unique visitors: exact up to 62 days, monotone and never below a sub-period, over random periods",
  async (t) => {
    const rand = random(SEED);
    const visits = population(rand);
    const at: string[] = [], keys: string[] = [], links: string[] = [];
    for (const [address, days] of visits) {
      for (const day of days) {
        const month = day.slice(0, 7);
        at.push(sp(`${day}T${String(8 + Math.floor(rand() * 14)).padStart(2, "0")}:00:00`).toISOString());
        keys.push(`${address}@${month}`);
        links.push(linkMonths(day, month).map((m) => `${address}@${m}`).join(","));
      }
    }
    await t.db.query(
      `insert into visits (occurred_at, visitor_key, source, link_keys)
     select a, k, '/pt-br', nullif(string_to_array(l, ','), '{}')
       from unnest($1::timestamptz[], $2::text[], $3::text[]) as v(a, k, l)`,
      [at, keys, links],
    );
    await runRollups(t.db, TZ, sp("2026-11-26T12:00:00"));

    const figures = new Map<string, number>();
    const figure = async (start: string, end: string) => {
      const key = `${start}..${end}`;
      let n = figures.get(key);
      if (n === undefined) {
        n = (await visitorTotals(t.db, { start, end }, TZ)).uniqueVisitors;
        figures.set(key, n);
      }
      return n;
    };
    // Periods may start before the first visit (as a year does).
    const randomPeriod = (maxDays: number, within = { start: EARLIEST, end: LAST }) => {
      const room = daysInclusive(within.start, within.end);
      const length = 1 + Math.floor(rand() * Math.min(maxDays, room));
      const start = addDays(within.start, Math.floor(rand() * (room - length + 1)));
      return { start, end: addDays(start, length - 1) };
    };

    const failures: string[] = [];
    for (let i = 0; i < 80; i++) {
      const outer = randomPeriod(daysInclusive(EARLIEST, LAST));
      const outerFigure = await figure(outer.start, outer.end);
      const outerExact = exact(visits, outer.start, outer.end);
      const days = daysInclusive(outer.start, outer.end);
      const where = `case ${i} (seed ${SEED}): ${outer.start}..${outer.end} (${days} days): ${outerFigure}`;
      if (days <= EXACT_VISITOR_DAYS && outerFigure !== outerExact) {
        failures.push(
          `${where}, exact ${outerExact}`,
        );
      }
      if (outerFigure < outerExact) failures.push(`${where} below its own exact count ${outerExact}`);
      // A nested period, of any length, and a sub-period of up to 62 days.
      const inner = randomPeriod(days, outer);
      const innerFigure = await figure(inner.start, inner.end);
      if (innerFigure > outerFigure) {
        failures.push(`${where} < ${innerFigure} for ${inner.start}..${inner.end} inside it`);
      }
      const window = randomPeriod(EXACT_VISITOR_DAYS, outer);
      const windowExact = exact(visits, window.start, window.end);
      if (windowExact > outerFigure) {
        failures.push(
          `${where} < ${windowExact}, the exact count of ${window.start}..${window.end} inside it`,
        );
      }
    }
    // Growing one period a day at a time, at both ends, across 62 days: never down, and up by at most the
    // visitors of the new day not seen in the period's 61 days before it (no jump from 62 to 63 days).
    for (const [start, fromEnd] of [["2026-06-01", "2026-07-20"], ["2026-08-10", "2026-09-30"]]) {
      let previous = await figure(start, fromEnd);
      for (let end = addDays(fromEnd, 1); end <= addDays(start, 75); end = addDays(end, 1)) {
        const n = await figure(start, end);
        const day = newOn(visits, start, end);
        if (n < previous || n > previous + day) {
          failures.push(
            `${start}..${end}: ${n} after ${previous} the day before (${day} new visitors that day)`,
          );
        }
        previous = n;
      }
      previous = await figure(addDays(fromEnd, -40), fromEnd);
      for (let s = addDays(fromEnd, -41); s >= addDays(fromEnd, -80); s = addDays(s, -1)) {
        const n = await figure(s, fromEnd);
        if (n < previous) failures.push(`${s}..${fromEnd}: ${n} after ${previous} for a day less`);
        previous = n;
      }
    }
    assert.deepEqual(failures, []);
  },
);
