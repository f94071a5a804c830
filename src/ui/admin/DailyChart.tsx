import {
  CategoryScale,
  Chart as ChartJS,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from "chart.js";
import { Line } from "react-chartjs-2";
import type { ChartPoint } from "../../shared/analytics.ts";
import { formatDay, formatShortDay } from "./format.ts";
import { METRICS } from "../../shared/metrics.ts";

ChartJS.register(
  LineController,
  LineElement,
  PointElement,
  LinearScale,
  CategoryScale,
  Tooltip,
  Legend,
  Filler,
);

const decimal = new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** The rate axis stops here: a day with 1 click and 36 leads (3.600 %) would flatten every other day. */
export const RATE_AXIS_CAP = 100;

/**
 * The chart itself (lazy chunk): one point per day, evenly spaced; counts on the left axis 'Quantidade',
 * the conversion rate on its own right axis, capped at RATE_AXIS_CAP (higher days sit on the top edge and
 * their tooltip gives the real rate). Clicking a legend entry hides or shows that series.
 */
export default function DailyChart({ points }: { points: ChartPoint[] }) {
  if (!points.length) return <p className="chart-empty">Sem dados no período selecionado.</p>;
  const capped = points.some((p) => p.conversionRate > RATE_AXIS_CAP);
  const line = (color: string) => ({
    borderColor: color,
    backgroundColor: color,
    borderWidth: 2,
    pointRadius: points.length > 40 ? 0 : 3,
    tension: 0.25,
  });
  return (
    <>
      <div
        className="chart-canvas"
        data-testid="chart"
        data-days={points.map((p) => p.date).join(" ")}
      >
        <Line
          aria-label="Gráfico diário de leads, cliques, visitantes únicos e taxa de conversão"
          role="img"
          data={{
            labels: points.map((p) => formatShortDay(p.date)),
            datasets: [
              {
                label: METRICS.leads.name,
                data: points.map((p) => p.leads),
                yAxisID: "y",
                ...line("#075e54"),
              },
              {
                label: METRICS.planClicks.name,
                data: points.map((p) => p.clicks),
                yAxisID: "y",
                ...line("#1d6fd8"),
              },
              {
                label: METRICS.uniqueVisitors.name,
                data: points.map((p) => p.visits),
                yAxisID: "y",
                ...line("#b45309"),
              },
              {
                label: "Taxa de conversão (%)",
                data: points.map((p) => Math.min(p.conversionRate, RATE_AXIS_CAP)),
                yAxisID: "y1",
                ...line("#7c3aed"),
                borderDash: [6, 4],
              },
            ],
          }}
          options={{
            responsive: true,
            maintainAspectRatio: false,
            animation: false,
            interaction: { mode: "index", intersect: false },
            plugins: {
              legend: { position: "bottom", labels: { usePointStyle: true, boxWidth: 8 } },
              tooltip: {
                callbacks: {
                  title: (items) => formatDay(points[items[0].dataIndex].date),
                  label: (item) =>
                    item.dataset.yAxisID === "y1"
                      ? `${item.dataset.label}: ${decimal.format(points[item.dataIndex].conversionRate)}%`
                      : `${item.dataset.label}: ${item.formattedValue}`,
                },
              },
            },
            scales: {
              y: {
                position: "left",
                beginAtZero: true,
                title: { display: true, text: "Quantidade" },
                ticks: { precision: 0 },
              },
              y1: {
                position: "right",
                beginAtZero: true,
                suggestedMax: 10,
                max: capped ? RATE_AXIS_CAP : undefined,
                title: { display: true, text: "Taxa de conversão (%)" },
                grid: { drawOnChartArea: false },
                ticks: { callback: (v) => `${v}%` },
              },
            },
          }}
        />
      </div>
      {capped && (
        <p className="chart-note admin-muted">
          Taxas acima de{" "}
          {RATE_AXIS_CAP}% (mais leads que cliques no dia) aparecem no topo do eixo; passe o mouse ou toque no
          dia para ver o valor.
        </p>
      )}
    </>
  );
}
