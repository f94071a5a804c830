import type { ReactNode } from "react";
import { performanceOf } from "../../shared/analytics.ts";
import { Delta } from "./Delta.tsx";
import { Card, LoadError, Loading } from "./Card.tsx";
import { panelCsvHref } from "./panels.ts";
import { formatInt, formatPercent, visibleText } from "./format.ts";
import { type Period, useConversionBySource } from "./queries.ts";
import { Term } from "./Term.tsx";
import { WORDS } from "../../shared/metrics.ts";

const LEVEL_TEXT = { excellent: "Excelente", good: "Bom", poor: "Precisa melhorar" } as const;

export interface ConversionRow {
  key: string;
  label: ReactNode;
  clicks: number;
  conversions: number;
  rate: number;
  /** The rate in the previous period, when the table compares with it. */
  previousRate?: number;
  /** Clicks in the previous period: none means no rate to compare with. */
  previousClicks?: number;
}

/** Clicks, conversions (labelled as leads) and a rate coloured by performance level, one row per origin. */
export function ConversionRows(
  { rows, head, label }: { rows: ConversionRow[]; head: string; label: string },
) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={label}>
      <table className="conversion-table">
        <thead>
          <tr>
            <th scope="col">{head}</th>
            <th scope="col" className="num">
              <Term id="planClicks">Cliques</Term>
            </th>
            <th scope="col" className="num">
              <Term id="leads" />
            </th>
            <th scope="col" className="num">
              <Term id="conversionRate">Taxa</Term>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const level = performanceOf(row.rate);
            return (
              <tr key={row.key}>
                <th scope="row">{row.label}</th>
                <td className="num">{formatInt(row.clicks)}</td>
                <td className="num">{formatInt(row.conversions)}</td>
                <td className="num">
                  <span className={`rate rate-${level}`} title={LEVEL_TEXT[level]}>
                    {formatPercent(row.rate)}
                    <span className="visually-hidden">({LEVEL_TEXT[level]})</span>
                  </span>
                  {row.previousRate !== undefined && (
                    <Delta
                      current={row.rate}
                      previous={row.previousRate}
                      points
                      noBase={row.previousClicks === 0}
                    />
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Section 8: clicks, conversions (labelled as leads) and rate per UTM source, with the performance legend. */
export function ConversionTable({ period }: { period: Period }) {
  const q = useConversionBySource(period);
  return (
    <Card
      id="conversion-by-source"
      csv={panelCsvHref("conversion-by-utm-source", period)}
      title="Conversão por origem"
      subtitle="Cliques nos planos e leads por origem UTM (utm_source) da sessão"
    >
      {q.isPending
        ? <Loading />
        : q.isError
        ? <LoadError onRetry={() => q.refetch()} />
        : q.data.length === 0
        ? <p className="card-empty">Nenhum clique ou conversão registrado no período</p>
        : (
          <ConversionRows
            head="Origem"
            label="Tabela de conversão por origem"
            rows={q.data.map((row) => ({
              key: row.utmSource ?? "(none)",
              label: row.utmSource
                ? visibleText(row.utmSource)
                : <span className="admin-muted">{WORDS.noUtmSource}</span>,
              clicks: row.clicks,
              conversions: row.conversions,
              rate: row.rate,
            }))}
          />
        )}
      <ul className="legend" aria-label="Legenda de desempenho">
        <li>
          <span className="dot rate-excellent" aria-hidden="true" />Excelente: 10% ou mais
        </li>
        <li>
          <span className="dot rate-good" aria-hidden="true" />Bom: de 5% a menos de 10%
        </li>
        <li>
          <span className="dot rate-poor" aria-hidden="true" />Precisa melhorar: abaixo de 5%
        </li>
      </ul>
    </Card>
  );
}
