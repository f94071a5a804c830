import { lazy, Suspense } from "react";
import { mergeDaily } from "../../shared/analytics.ts";
import { Card, LoadError } from "./Card.tsx";
import { type Period, useDailySeries } from "./queries.ts";

// Chart.js is loaded only when the chart is shown: its own chunk, off the sign-in path.
const DailyChart = lazy(() => import("./DailyChart.tsx"));

function ChartLoading() {
  return <p className="chart-loading" role="status">Carregando gráfico...</p>;
}

/** Section 5: the daily line chart, 350 px high. */
export function ChartSection({ period }: { period: Period }) {
  const series = useDailySeries(period);
  return (
    <Card
      id="chart"
      title="Evolução diária"
      subtitle="Leads, cliques e visitas únicas por dia; taxa de conversão em %"
    >
      <div className="chart-box">
        {series.isError
          ? <LoadError onRetry={() => series.refetch()} />
          : series.isPending
          ? <ChartLoading />
          : (
            <Suspense fallback={<ChartLoading />}>
              <DailyChart points={mergeDaily(series.data.leads, series.data.clicks, series.data.visits)} />
            </Suspense>
          )}
      </div>
    </Card>
  );
}
