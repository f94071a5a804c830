import { lazy, Suspense } from "react";
import { chartDays, type DailyCount, mergeDaily } from "../../shared/analytics.ts";
import { today } from "./format.ts";
import { Card, LoadError } from "./Card.tsx";
import { panelCsvHref } from "./panels.ts";
import { type Period, useDailySeries } from "./queries.ts";

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

/** Section 5: the daily line chart, 350 px high. */
export function ChartSection({ period }: { period: Period }) {
  const series = useDailySeries(period);
  return (
    <Card
      id="chart"
      csv={panelCsvHref("daily", period)}
      title="Evolução diária"
      subtitle="Leads, cliques nos planos e visitantes únicos por dia; taxa de conversão (leads ÷ cliques nos planos) em %"
    >
      <div className="chart-box">
        {series.isError
          ? <LoadError onRetry={() => series.refetch()} />
          : series.isPending
          ? <ChartLoading />
          : (
            <Suspense fallback={<ChartLoading />}>
              <DailyChart points={chartPoints(period, series.data)} />
            </Suspense>
          )}
      </div>
    </Card>
  );
}
