import { useState } from "react";
import {
  CategoryScale,
  Chart as ChartJS,
  Filler,
  LinearScale,
  LineController,
  LineElement,
  type Plugin,
  PointElement,
  type ScriptableLineSegmentContext,
  Tooltip,
} from "chart.js";
import { Line } from "react-chartjs-2";
import { METRICS } from "../../shared/metrics.ts";

ChartJS.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Tooltip, Filler);

const decimal = new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** The rate axis stops here: a day with 1 click and 36 leads (3.600 %) would flatten every other day. */
export const RATE_AXIS_CAP = 100;

/**
 * One point of the chart: a day, or an hour of a one-day period. `partial`: the day or hour is still under way
 * (its segment is drawn dashed); a point whose counts are null has not begun (nothing is drawn).
 */
export interface SeriesPoint {
  /** yyyy-MM-dd, or the hour's first instant. */
  key: string;
  /** Under the x axis. */
  label: string;
  /** The tooltip's title. */
  title: string;
  partial: boolean;
  leads: number | null;
  clicks: number | null;
  whatsappClicks: number | null;
  visits: number | null;
  conversionRate: number | null;
}

type SeriesId = "leads" | "clicks" | "whatsappClicks" | "visits" | "conversionRate";

/** The series, in the legend's order: each can be hidden (then the left axis fits the ones left). */
const SERIES: { id: SeriesId; label: string; color: string; rate?: true }[] = [
  { id: "leads", label: METRICS.leads.name, color: "#075e54" },
  { id: "clicks", label: METRICS.planClicks.name, color: "#1d6fd8" },
  { id: "whatsappClicks", label: METRICS.whatsappClicks.name, color: "#16a34a" },
  { id: "visits", label: METRICS.uniqueVisitors.name, color: "#b45309" },
  { id: "conversionRate", label: "Taxa de conversão (%)", color: "#7c3aed", rate: true },
];

/** Writes the left axis's top on the chart's box, so a test (or a person in devtools) can read it. */
const axisProbe: Plugin<"line"> = {
  id: "axisProbe",
  afterUpdate(chart) {
    const box = chart.canvas.parentElement;
    if (box) box.dataset.yMax = String(chart.scales.y?.max ?? "");
  },
};

/**
 * The chart itself (lazy chunk): one point per day, or per hour for a one-day period, evenly spaced; counts on
 * the left axis 'Quantidade', the conversion rate on its own right axis, capped at RATE_AXIS_CAP (higher points
 * sit on the top edge and their tooltip gives the real rate). The toggles above it hide or show each series;
 * the segment into a point still under way is dashed, and points not begun are not drawn.
 */
export default function DailyChart(
  { points, unit = "dia" }: { points: SeriesPoint[]; unit?: "dia" | "hora" },
) {
  const [hidden, setHidden] = useState<ReadonlySet<SeriesId>>(new Set());
  if (!points.length) return <p className="chart-empty">Sem dados no período selecionado.</p>;
  const capped = points.some((p) => (p.conversionRate ?? 0) > RATE_AXIS_CAP);
  const partialFrom = points.findIndex((p) => p.partial);
  const dashed = (ctx: ScriptableLineSegmentContext, solid?: number[]) =>
    partialFrom >= 0 && ctx.p1DataIndex >= partialFrom ? [3, 4] : solid;
  const toggle = (id: SeriesId) => {
    const next = new Set(hidden);
    if (!next.delete(id)) next.add(id);
    setHidden(next);
  };
  return (
    <>
      <div className="chart-toggles" role="group" aria-label="Mostrar ou ocultar séries do gráfico">
        {SERIES.map((s) => (
          <button
            key={s.id}
            type="button"
            className="chart-toggle"
            aria-pressed={!hidden.has(s.id)}
            data-series={s.id}
            onClick={() => toggle(s.id)}
          >
            <span className="chart-swatch" aria-hidden="true" style={{ background: s.color }} />
            {s.label}
          </button>
        ))}
      </div>
      <div
        className="chart-canvas"
        data-testid="chart"
        data-unit={unit}
        data-days={points.map((p) => p.key).join(" ")}
        data-partial={partialFrom >= 0 ? points[partialFrom].key : ""}
        data-hidden={[...hidden].join(" ")}
      >
        <Line
          aria-label={`Gráfico por ${unit}: leads, cliques, cliques no WhatsApp, visitantes únicos e taxa de conversão`}
          role="img"
          plugins={[axisProbe]}
          data={{
            labels: points.map((p) => p.label),
            datasets: SERIES.map((s) => ({
              label: s.label,
              data: points.map((p) =>
                s.rate
                  ? (p.conversionRate === null ? null : Math.min(p.conversionRate, RATE_AXIS_CAP))
                  : p[s.id]
              ),
              yAxisID: s.rate ? "y1" : "y",
              hidden: hidden.has(s.id),
              borderColor: s.color,
              backgroundColor: s.color,
              borderWidth: 2,
              pointRadius: points.length > 40 ? 0 : 3,
              tension: 0.25,
              borderDash: s.rate ? [6, 4] : undefined,
              segment: {
                borderDash: (ctx: ScriptableLineSegmentContext) => dashed(ctx, s.rate ? [6, 4] : undefined),
              },
            })),
          }}
          options={{
            responsive: true,
            maintainAspectRatio: false,
            animation: false,
            interaction: { mode: "index", intersect: false },
            plugins: {
              legend: { display: false },
              tooltip: {
                callbacks: {
                  title: (items) => {
                    const p = points[items[0].dataIndex];
                    return p.partial ? `${p.title} (em andamento)` : p.title;
                  },
                  label: (item) =>
                    item.dataset.yAxisID === "y1"
                      ? `${item.dataset.label}: ${
                        decimal.format(points[item.dataIndex].conversionRate ?? 0)
                      }%`
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
      {partialFrom >= 0 && (
        <p className="chart-partial admin-muted" data-testid="chart-partial-note">
          Linha tracejada: {unit === "hora" ? "a hora" : "o dia"} em andamento (números parciais).
        </p>
      )}
      {capped && (
        <p className="chart-note admin-muted">
          Taxas acima de{" "}
          {RATE_AXIS_CAP}% (mais leads que cliques) aparecem no topo do eixo; passe o mouse ou toque no ponto
          para ver o valor.
        </p>
      )}
    </>
  );
}
