import { addDays, daysInclusive, isDay, monthOf } from "../../shared/analytics.ts";
import { formatDay, today } from "./format.ts";
import type { Period } from "./queries.ts";

function dayCount(p: Period): string {
  const n = daysInclusive(p.start, p.end);
  return ` (${n} ${n === 1 ? "dia" : "dias"})`;
}

/** Section 1: the period, first to last day of the current month by default, shown as dd/MM/yyyy. */
export function PeriodPicker({ period, onChange }: { period: Period; onChange: (p: Period) => void }) {
  const now = today();
  const thisMonth = monthOf(now);
  const lastMonth = monthOf(addDays(thisMonth.start, -1));
  const presets: [string, Period][] = [
    ["Este mês", thisMonth],
    ["Mês passado", lastMonth],
    ["Últimos 7 dias", { start: addDays(now, -6), end: now }],
    ["Últimos 30 dias", { start: addDays(now, -29), end: now }],
  ];
  const set = (next: Partial<Period>) => {
    const p = { ...period, ...next };
    if (!isDay(p.start) || !isDay(p.end)) return;
    // Keep the period valid: moving one end past the other moves both.
    if (p.end < p.start) {
      if (next.start) p.end = p.start;
      else p.start = p.end;
    }
    onChange(p);
  };
  return (
    <section className="admin-card period-card" aria-labelledby="period-title" id="period">
      <div className="period-row">
        <div>
          <h2 id="period-title">Período</h2>
          <p className="period-range" data-testid="period-range">
            {formatDay(period.start)} – {formatDay(period.end)}
            <span className="admin-muted">{dayCount(period)}</span>
          </p>
        </div>
        <div className="period-inputs">
          <label className="admin-field compact">
            <span>Data inicial</span>
            <input
              type="date"
              value={period.start}
              max={period.end}
              onChange={(e) => set({ start: e.target.value })}
            />
          </label>
          <label className="admin-field compact">
            <span>Data final</span>
            <input
              type="date"
              value={period.end}
              min={period.start}
              onChange={(e) => set({ end: e.target.value })}
            />
          </label>
        </div>
      </div>
      <div className="period-presets" role="group" aria-label="Períodos rápidos">
        {presets.map(([label, p]) => (
          <button
            key={label}
            type="button"
            className="chip"
            aria-pressed={p.start === period.start && p.end === period.end}
            onClick={() => onChange(p)}
          >
            {label}
          </button>
        ))}
      </div>
    </section>
  );
}
