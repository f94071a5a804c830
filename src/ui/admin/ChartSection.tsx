import { lazy, Suspense } from "react";
import { chartDays, type DailyCount, mergeDaily } from "../../shared/dashboard_math.ts";
import type { HourlyReport } from "../../shared/admin_schemas.ts";
import { formatDay, formatShortDay, today } from "./format.ts";
import { Card, LoadError } from "./Card.tsx";
import { type Period, useDailySeries, useHourly, useWhatsapp } from "./queries.ts";
import type { SeriesPoint } from "./DailyChart.tsx";
import { panelCsvHref } from "./panels.ts";

// Chart.js is loaded only when the chart is shown: its own chunk, off the sign-in path.
const DailyChart = lazy(() => import("./DailyChart.tsx"));

function ChartLoading() {
  return <p className="chart-loading" role="status">Carregando gráfico...</p>;
}

/** Every day of the period up to today (later days have no data yet, not zero), oldest first. */
export function chartPoints(
  period: Period,
  data: { leads: DailyCount[]; clicks: DailyCount[]; visits: DailyCount[] },
) {
  return chartDays(mergeDaily(data.leads, data.clicks, data.visits), period.start, period.end, today());
}

/** The daily chart's points, with the WhatsApp clicks; today (if shown) is still under way. */
export function dailyPoints(
  period: Period,
  data: { leads: DailyCount[]; clicks: DailyCount[]; visits: DailyCount[] },
  whatsapp: DailyCount[],
): SeriesPoint[] {
  const wa = new Map(whatsapp.map((d) => [d.date, d.count]));
  // A day with WhatsApp clicks only still has a point.
  const extra = whatsapp.map((d) => ({ date: d.date, count: 0 }));
  const days = chartPoints(period, { ...data, leads: [...data.leads, ...extra] });
  const now = today();
  return days.map((p) => ({
    key: p.date,
    label: formatShortDay(p.date),
    title: formatDay(p.date),
    partial: p.date === now,
    leads: p.leads,
    clicks: p.clicks,
    whatsappClicks: wa.get(p.date) ?? 0,
    visits: p.visits,
    conversionRate: p.conversionRate,
  }));
}

/** A one-day period's points, one per hour (the hour under way partial, later hours empty). */
export function hourlyPoints(report: HourlyReport): SeriesPoint[] {
  return report.hours.map((h, i) => ({
    key: h.start,
    label: h.label,
    title: `${formatDay(report.date)}, ${h.label}–${report.hours[i + 1]?.label ?? "24:00"}`,
    partial: h.state === "partial",
    leads: h.leads,
    clicks: h.clicks,
    whatsappClicks: h.whatsappClicks,
    visits: h.visits,
    conversionRate: h.conversionRate,
  }));
}

/**
 * Section 5: the line chart, 350 px high: one point per day, or per hour when the period is one day (from the
 * raw rows; a day whose raw rows are purged keeps its single daily point).
 */
export function ChartSection({ period }: { period: Period }) {
  const oneDay = period.start === period.end;
  const series = useDailySeries(period);
  const whatsapp = useWhatsapp(period);
  const hourly = useHourly(period.start, oneDay);
  const byHour = oneDay && hourly.data?.available === true;
  const queries = oneDay ? [series, whatsapp, hourly] : [series, whatsapp];
  return (
    <Card
      id="chart"
      csv={panelCsvHref("daily", period)}
      title={byHour ? "Evolução por hora" : "Evolução diária"}
      subtitle={`Leads, cliques nos planos, cliques no WhatsApp e visitantes únicos por ${
        byHour ? "hora" : "dia"
      }; taxa de conversão (leads ÷ cliques nos planos) em %`}
    >
      <div className="chart-box">
        {queries.some((q) => q.isError)
          ? <LoadError onRetry={() => queries.forEach((q) => q.isError && q.refetch())} />
          : queries.some((q) => q.isPending) || !series.data || !whatsapp.data
          ? <ChartLoading />
          : (
            <Suspense fallback={<ChartLoading />}>
              {byHour
                ? <DailyChart unit="hora" points={hourlyPoints(hourly.data!)} />
                : <DailyChart points={dailyPoints(period, series.data, whatsapp.data.daily)} />}
            </Suspense>
          )}
      </div>
    </Card>
  );
}
