import { changePercent, round1 } from "../../shared/dashboard_math.ts";
import { formatDecimal, formatInt, formatPercent } from "./format.ts";
import { WORDS } from "../../shared/metrics.ts";

/**
 * The compact form of a figure's change against the previous period, for tables and rankings: "▲ 12,5%",
 * "▼ 3,0 p.p." for a rate (`points`), "novo" when there was nothing before; a rate whose denominator was 0
 * before (`noBase`) has nothing to compare: "—". The full wording is in the title and for screen readers.
 */
export function Delta(
  { current, previous, points, noBase }: {
    current: number;
    previous: number;
    points?: boolean;
    noBase?: boolean;
  },
) {
  if (noBase) {
    return (
      <span className="delta neutral" title="Sem dados no período anterior">
        —<span className="visually-hidden">(sem dados no período anterior)</span>
      </span>
    );
  }
  const change = points ? round1(current - previous) : changePercent(current, previous);
  if (change === null) {
    return (
      <span className="delta up" title="Sem registro no período anterior">
        novo<span className="visually-hidden">(sem registro no período anterior)</span>
      </span>
    );
  }
  const dir = change > 0 ? "up" : change < 0 ? "down" : "neutral";
  const arrow = change > 0 ? "▲" : change < 0 ? "▼" : "■";
  const text = points ? `${formatDecimal(Math.abs(change))} p.p.` : formatPercent(Math.abs(change));
  const word = change > 0 ? "mais" : "menos";
  return (
    <span className={`delta ${dir}`} title={`${arrow} ${text} vs. período anterior`}>
      <span aria-hidden="true">{arrow}</span> {change === 0 ? "0%" : text}
      <span className="visually-hidden">
        ({change === 0 ? WORDS.samePrevious : `${word} que no período anterior`})
      </span>
    </span>
  );
}

/** A row's visits, plan clicks, leads and rate. */
export interface ComparedFigures {
  visits: number;
  clicks: number;
  leads: number;
  leadRate: number;
}

/** The four number cells of a breakdown table's row, each with its change against the previous period. */
export function ComparedCells({ now, before }: { now: ComparedFigures; before: ComparedFigures }) {
  return (
    <>
      <td className="num">
        {formatInt(now.visits)}
        <Delta current={now.visits} previous={before.visits} />
      </td>
      <td className="num">
        {formatInt(now.clicks)}
        <Delta current={now.clicks} previous={before.clicks} />
      </td>
      <td className="num">
        {formatInt(now.leads)}
        <Delta current={now.leads} previous={before.leads} />
      </td>
      <td className="num">
        {formatPercent(now.leadRate)}
        <Delta current={now.leadRate} previous={before.leadRate} points noBase={before.clicks === 0} />
      </td>
    </>
  );
}
