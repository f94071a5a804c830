import type { ReactNode } from "react";
import {
  averageLeadsPerDay,
  averageVisitsPerDay,
  changePercent,
  EXACT_VISITOR_DAYS,
  round1,
  sumCounts,
} from "../../shared/dashboard_math.ts";
import { Card, LoadError, Loading } from "./Card.tsx";
import { panelCsvHref } from "./panels.ts";
import { chartPoints } from "./ChartSection.tsx";
import { Term } from "./Term.tsx";
import { type MetricId, METRICS, WORDS } from "../../shared/metrics.ts";
import { formatComparison, formatDecimal, formatInt, formatPercent } from "./format.ts";
import { type Period, useDailySeries, useStats, useSummary, useWhatsapp } from "./queries.ts";

/** What the figures are compared with (the summary's `previous`): its days, and the time its last day stops. */
export type Compared = { start: string; end: string; until: string | null };

/**
 * "▲ 12,5% vs 01/10–26/10", coloured by direction, naming the days compared with; "sem dados no período
 * anterior" when there is no base to compare. A rate (`points`) changes in percentage points: 100% → 11,5%
 * is "▼ 88,5 p.p.", not a relative change; `noBase` says its denominator was 0 before (no rate to compare).
 */
export function Change(
  { current, previous, points, noBase, vs }: {
    current: number;
    previous: number;
    points?: boolean;
    noBase?: boolean;
    vs: Compared;
  },
) {
  const change = noBase ? null : points ? round1(current - previous) : changePercent(current, previous);
  if (change === null) {
    return (
      <p className="metric-change neutral" data-testid="metric-change">
        {WORDS.noPrevious} <span className="admin-muted">({formatComparison(vs)})</span>
      </p>
    );
  }
  const dir = change > 0 ? "up" : change < 0 ? "down" : "neutral";
  const arrow = change > 0 ? "▲" : change < 0 ? "▼" : "■";
  return (
    <p className={`metric-change ${dir}`} data-testid="metric-change">
      <span aria-hidden="true">{arrow}</span>{" "}
      {points ? `${formatDecimal(Math.abs(change))} p.p.` : formatPercent(Math.abs(change))}{" "}
      <span className="admin-muted">{formatComparison(vs)}</span>
    </p>
  );
}

export function Metric(
  props: {
    label: ReactNode;
    value: string;
    testId: string;
    hint?: string;
    /** Shown after the value ("aprox.") with its reason as a tooltip and for screen readers. */
    qualifier?: { text: string; why: string };
    children?: ReactNode;
  },
) {
  return (
    <div className="metric">
      <p className="metric-label">{props.label}</p>
      <p className="metric-value" data-testid={props.testId}>
        {props.value}
        {props.qualifier && (
          <abbr className="metric-qualifier" title={props.qualifier.why} tabIndex={0}>
            {props.qualifier.text}
            <span className="visually-hidden">: {props.qualifier.why}</span>
          </abbr>
        )}
      </p>
      {props.hint && <p className="metric-hint admin-muted">{props.hint}</p>}
      {props.children}
    </div>
  );
}

const APPROXIMATE = {
  text: "aprox.",
  why: `Estimativa para mais de ${EXACT_VISITOR_DAYS} dias: os primeiros ${EXACT_VISITOR_DAYS} dias são ` +
    `exatos e cada dia seguinte soma quem visitou nele e não nos ${EXACT_VISITOR_DAYS - 1} dias anteriores ` +
    "(quem volta após uma ausência maior conta de novo, pois a chave do visitante muda todo mês e não " +
    "guardamos o IP); em dias já expurgados somam-se os únicos de cada dia. Nunca diminui quando o período " +
    `cresce e nunca fica abaixo do número exato de quaisquer ${EXACT_VISITOR_DAYS} dias dentro dele.`,
};

/** Unique visitors (exact over the period) and the average per day with visits (docs/METRICS.md). */
export function VisitMetrics({ period }: { period: Period }) {
  const summary = useSummary(period);
  const series = useDailySeries(period);
  const failed = summary.isError || series.isError;
  const visitDays = series.data?.visits.filter((d) => d.count > 0).length ?? 0;
  return (
    <Card
      id="visits"
      csv={panelCsvHref("summary", period)}
      title={METRICS.uniqueVisitors.name}
      subtitle="Pessoas diferentes no período, pelo endereço IP"
    >
      {failed
        ? (
          <LoadError
            onRetry={() => {
              summary.refetch();
              series.refetch();
            }}
          />
        )
        : summary.isPending || series.isPending
        ? <Loading />
        : (
          <div className="metric-grid two">
            <Metric
              label={<Term id="uniqueVisitors" />}
              value={formatInt(summary.data.current.uniqueVisitors)}
              testId="unique-visitors"
              qualifier={summary.data.current.approximate ? APPROXIMATE : undefined}
            >
              <Change
                current={summary.data.current.uniqueVisitors}
                previous={summary.data.previous.uniqueVisitors}
                vs={summary.data.previous}
              />
            </Metric>
            <Metric
              label={<Term id="visitorsPerDay" />}
              value={formatDecimal(averageVisitsPerDay(series.data.visits))}
              testId="visitors-per-day"
              hint={`em ${visitDays} ${visitDays === 1 ? "dia" : "dias"} com visitas`}
            />
          </div>
        )}
    </Card>
  );
}

/** Section 3: clicks that opened the modal, forms submitted, and the rate. */
export function ConversionMetrics({ period }: { period: Period }) {
  const stats = useStats(period);
  const summary = useSummary(period);
  const previous = summary.data?.previous;
  return (
    <Card
      id="conversions"
      csv={panelCsvHref("summary", period)}
      title="Métricas de conversão"
      subtitle="Cliques que abriram o formulário de lead e formulários enviados"
    >
      {stats.isPending
        ? <Loading />
        : stats.isError
        ? <LoadError onRetry={() => stats.refetch()} />
        : (
          <div className="metric-grid three">
            <Metric label={<Term id="planClicks" />} value={formatInt(stats.data.clicks)} testId="clicks">
              {previous && <Change current={stats.data.clicks} previous={previous.clicks} vs={previous} />}
            </Metric>
            <Metric
              label={<Term id="conversions" />}
              value={formatInt(stats.data.conversions)}
              testId="conversions"
            >
              {previous && (
                <Change current={stats.data.conversions} previous={previous.conversions} vs={previous} />
              )}
            </Metric>
            <Metric
              label={<Term id="conversionRate" />}
              value={formatPercent(stats.data.rate)}
              testId="conversion-rate"
            >
              {previous && (
                <Change
                  current={stats.data.rate}
                  previous={previous.conversionRate}
                  points
                  noBase={previous.clicks === 0}
                  vs={previous}
                />
              )}
            </Metric>
          </div>
        )}
    </Card>
  );
}

/** "em 26 dias": the days an average divides by (the days of the period begun so far). */
function dayCount(days: number): string {
  return `em ${days} ${days === 1 ? "dia" : "dias"}`;
}

/** Section 4: leads in the period, the daily series' sum, and the average per chart day. */
export function LeadMetrics({ period }: { period: Period }) {
  const series = useDailySeries(period);
  const summary = useSummary(period);
  const failed = series.isError || summary.isError;
  return (
    <Card id="lead-stats" title="Estatísticas de leads" csv={panelCsvHref("summary", period)}>
      {failed
        ? (
          <LoadError
            onRetry={() => {
              series.refetch();
              summary.refetch();
            }}
          />
        )
        : series.isPending || summary.isPending
        ? <Loading />
        : (
          <div className="metric-grid three">
            <Metric
              label={<Term id="totalLeads" />}
              value={formatInt(summary.data.current.leads)}
              testId="total-leads"
            >
              <Change
                current={summary.data.current.leads}
                previous={summary.data.previous.leads}
                vs={summary.data.previous}
              />
            </Metric>
            <Metric
              label={<Term id="periodLeads" />}
              value={formatInt(sumCounts(series.data.leads))}
              testId="period-leads"
            />
            <Metric
              label={<Term id="leadsPerDay" />}
              value={formatDecimal(averageLeadsPerDay(chartPoints(period, series.data)))}
              testId="leads-per-day"
              hint={chartPoints(period, series.data).length
                ? dayCount(chartPoints(period, series.data).length)
                : undefined}
            />
          </div>
        )}
    </Card>
  );
}

/**
 * An added panel (docs/PRODUCT.md, _Dashboard_): where visitors drop out, from a visit to a plan click to a
 * lead.
 */
export function Funnel({ period }: { period: Period }) {
  const summary = useSummary(period);
  const whatsapp = useWhatsapp(period);
  return (
    <Card
      id="funnel"
      csv={panelCsvHref("summary", period)}
      title="Funil"
      subtitle="Pessoas que visitaram; cliques, cliques no WhatsApp e leads contados por visitante único"
    >
      {summary.isPending
        ? <Loading />
        : summary.isError
        ? <LoadError onRetry={() => summary.refetch()} />
        : (() => {
          const { uniqueVisitors, clicks, leads } = summary.data.current;
          // WhatsApp clicks are a step of their own beside the plan clicks: a chat is not a lead form.
          const whatsappClicks = whatsapp.data?.total ?? 0;
          // Clicks are not unique per person (one visitor may click several plans), so each step is put per
          // visitor instead of as a share of the step before, which could pass 100%.
          const steps: [MetricId, number, string][] = [
            ["uniqueVisitors", uniqueVisitors, "pessoas (por endereço IP)"],
            ["planClicks", clicks, "cliques por visitante único"],
            ["whatsappClicks", whatsappClicks, "cliques no WhatsApp por visitante único"],
            ["leads", leads, "leads por 100 visitantes únicos"],
          ];
          const top = Math.max(1, uniqueVisitors, clicks, whatsappClicks, leads);
          return (
            <ol className="funnel">
              {steps.map(([id, value, unit], i) => {
                const per = id === "leads" ? (value / uniqueVisitors) * 100 : value / uniqueVisitors;
                return (
                  <li key={id}>
                    <div className="funnel-label">
                      <Term id={id} />
                      <strong>{formatInt(value)}</strong>
                    </div>
                    <div className="funnel-bar" aria-hidden="true">
                      <span style={{ width: `${Math.max(2, (value / top) * 100)}%` }} />
                    </div>
                    <p className="admin-muted funnel-step">
                      {i === 0 ? unit : uniqueVisitors ? `${formatDecimal(round1(per))} ${unit}` : "—"}
                    </p>
                  </li>
                );
              })}
            </ol>
          );
        })()}
    </Card>
  );
}
