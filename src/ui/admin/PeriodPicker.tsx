import { useState } from "react";
import { addDays, daysInclusive, isDay, MAX_RANGE_DAYS, monthOf } from "../../shared/analytics.ts";
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
  const [tooLong, setTooLong] = useState(false);
  const set = (next: Partial<Period>) => {
    const p = { ...period, ...next };
    if (!isDay(p.start) || !isDay(p.end)) return;
    // Keep the period valid: moving one end past the other moves both.
    if (p.end < p.start) {
      if (next.start) p.end = p.start;
      else p.start = p.end;
    }
    // The API answers at most MAX_RANGE_DAYS: say so instead of asking for a period every card would refuse.
    const long = daysInclusive(p.start, p.end) > MAX_RANGE_DAYS;
    setTooLong(long);
    if (!long) onChange(p);
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
              min={addDays(period.end, -(MAX_RANGE_DAYS - 1))}
              max={period.end}
              aria-describedby="period-limit"
              onChange={(e) => set({ start: e.target.value })}
            />
          </label>
          <label className="admin-field compact">
            <span>Data final</span>
            <input
              type="date"
              value={period.end}
              min={period.start}
              max={addDays(period.start, MAX_RANGE_DAYS - 1)}
              aria-describedby="period-limit"
              onChange={(e) => set({ end: e.target.value })}
            />
          </label>
        </div>
      </div>
      <p
        id="period-limit"
        className={tooLong ? "period-limit error" : "period-limit admin-muted"}
        role="status"
      >
        {tooLong
          ? `O período pode ter no máximo ${MAX_RANGE_DAYS} dias: escolha datas mais próximas.`
          : `Até ${MAX_RANGE_DAYS} dias.`}
      </p>
      <div className="period-presets" role="group" aria-label="Períodos rápidos">
        {presets.map(([label, p]) => (
          <button
            key={label}
            type="button"
            className="chip"
            aria-pressed={p.start === period.start && p.end === period.end}
            onClick={() => {
              setTooLong(false);
              onChange(p);
            }}
          >
            {label}
          </button>
        ))}
      </div>
    </section>
  );
}
