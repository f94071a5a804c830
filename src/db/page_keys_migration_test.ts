// migrations/00015_page_keys.sql on rows stored before it: raw page views and the roll-ups of pages and entry
// pages end up under the same keys as new rows (src/shared/page_key.ts), added up where they now agree.
import assert from "node:assert/strict";
import { dbTest } from "../../testing/db.ts";
import { readMigrations } from "./migrate.ts";
import { pageKey } from "../shared/page_key.ts";

const OLD_SOURCES = [
  "/pt-br",
  "/pt-br/",
  "/pt-br?fbclid=IwAR1",
  "/pt-br/?gclid=Cj0&utm_source=google",
  "/pt-br?utm_source=google&gclid=Cj1",
  "/en/?gbraid=1&wbraid=2&msclkid=3&ttclid=4",
  "/es?FBCLID=x&ref=a",
  "/pt-br/clientes/",
  "/pt-br/clientes?q=1&&",
  "/pt-br?gclidx=1",
  "/",
];

dbTest("migration 00015: old page views and page roll-ups are rewritten to their page keys", async (db) => {
  const sql = (await readMigrations()).find((m) => m.name === "00015_page_keys.sql")!.sql;
  for (const [i, source] of OLD_SOURCES.entries()) {
    await db.query(
      `insert into visits (occurred_at, visitor_key, source) values ('2026-11-10T12:00:00Z', $1, $2)`,
      [`k${i}`, source],
    );
  }
  await db.exec(`
    insert into daily_visit_ranks (day, dimension, key, visits) values
      ('2026-11-10', 'page', '/pt-br', 5), ('2026-11-10', 'page', '/pt-br/', 2),
      ('2026-11-10', 'page', '/pt-br?fbclid=a', 1), ('2026-11-10', 'page', '/pt-br?fbclid=b', 1),
      ('2026-11-10', 'page', '/pt-br/?utm_source=ig&fbclid=c', 3), ('2026-11-10', 'page', '/pt-br?utm_source=ig', 4),
      ('2026-11-10', 'entry_page', '/pt-br/', 2), ('2026-11-10', 'entry_page', '/pt-br', 1),
      ('2026-11-11', 'page', '/pt-br/', 7), ('2026-11-10', 'utm_source', 'x/', 1)`);
  await db.exec(sql);
  const rows = await db.query<{ i: number; source: string }>(
    "select substr(visitor_key, 2)::int as i, source from visits",
  );
  for (const { i, source } of rows) assert.equal(source, pageKey(OLD_SOURCES[i]), OLD_SOURCES[i]);
  assert.equal(rows.length, OLD_SOURCES.length);
  const ranks = await db.query<{ day: string; dimension: string; key: string; visits: number }>(
    `select to_char(day, 'YYYY-MM-DD') as day, dimension, key, visits from daily_visit_ranks
      order by day, dimension, key`,
  );
  assert.deepEqual(ranks, [
    { day: "2026-11-10", dimension: "entry_page", key: "/pt-br", visits: 3 },
    { day: "2026-11-10", dimension: "page", key: "/pt-br", visits: 9 },
    { day: "2026-11-10", dimension: "page", key: "/pt-br?utm_source=ig", visits: 7 },
    // Other dimensions are left as they are.
    { day: "2026-11-10", dimension: "utm_source", key: "x/", visits: 1 },
    { day: "2026-11-11", dimension: "page", key: "/pt-br", visits: 7 },
  ]);
});
