// What the dashboard's report routes share: the query's period as a DayRange, and the request's database,
// time zone and clock.
import type { Context } from "hono";
import type { AppEnv } from "../../server/env.ts";
import type { DayRange } from "../../shared/dashboard_math.ts";

export function rangeOf(v: { startDate?: string; endDate?: string }): DayRange | undefined {
  return v.startDate && v.endDate ? { start: v.startDate, end: v.endDate } : undefined;
}

export function reportContext(c: Context<AppEnv>) {
  const { db, config } = c.get("deps");
  return { db, tz: config.ANALYTICS_TZ, now: c.get("now"), query: c.req.query() };
}
