import { useRef, useState } from "react";
import {
  addDays,
  daysInclusive,
  EXACT_VISITOR_DAYS,
  isDay,
  MAX_RANGE_DAYS,
} from "../../shared/dashboard_math.ts";
import { PERIOD_PRESETS, presetRange } from "../../shared/filters.ts";
import { formatDay, today } from "./format.ts";
import type { Period } from "./queries.ts";

function dayCount(p: Period): string {
  const n = daysInclusive(p.start, p.end);
  return ` (${n} ${n === 1 ? "dia" : "dias"})`;
}

/**
 * What changing one date did, in words: "Data inicial alterada; a data final (30/11/2026) foi mantida:
 * 94 dias." (or moved with it when it would have come before the other), and, past EXACT_VISITOR_DAYS,
 * that unique visitors are an estimate.
 */
export function periodNote(p: Period, changed: "start" | "end", moved: boolean): string {
  const n = daysInclusive(p.start, p.end);
  const days = `${n} ${n === 1 ? "dia" : "dias"}`;
  const text = changed === "start"
    ? moved
      ? `Data inicial depois da final: a data final passou a ${formatDay(p.end)}, ${days}.`
      : `Data inicial alterada; a data final (${formatDay(p.end)}) foi mantida: ${days}.`
    : moved
    ? `Data final antes da inicial: a data inicial passou a ${formatDay(p.start)}, ${days}.`
    : `Data final alterada; a data inicial (${formatDay(p.start)}) foi mantida: ${days}.`;
  return n > EXACT_VISITOR_DAYS
    ? `${text} Acima de ${EXACT_VISITOR_DAYS} dias, os visitantes únicos são estimados (aprox.).`
    : text;
}

/**
 * Section 1: the period, first to last day of the current month by default, shown as dd/MM/yyyy; presets
 * (shared/filters.ts PERIOD_PRESETS) or custom dates ("Personalizado"). The view's filters are kept.
 */
export function PeriodPicker({ period, onChange }: { period: Period; onChange: (p: Period) => void }) {
  const now = today();
  const startInput = useRef<HTMLInputElement>(null);
  // A preset is pressed when the view came from it, or (custom dates) when its days are the same.
  const presets = PERIOD_PRESETS.map(([id, label]) => {
    const range = presetRange(id, now);
    const pressed = period.preset
      ? period.preset === id
      : range.start === period.start && range.end === period.end;
    return { id, label, range, pressed };
  });
  const custom = !presets.some((p) => p.pressed);
  const [tooLong, setTooLong] = useState(false);
  // What the last date typed did to the other end, said in words (not only in the day count).
  const [note, setNote] = useState("");
  const set = (next: Partial<Period>) => {
    const p: Period = { ...period, ...next, preset: undefined };
    if (!isDay(p.start) || !isDay(p.end)) return;
    // Keep the period valid: moving one end past the other moves both.
    let moved = false;
    if (p.end < p.start) {
      if (next.start) p.end = p.start;
      else p.start = p.end;
      moved = true;
    }
    // The API answers at most MAX_RANGE_DAYS: say so instead of asking for a period every card would refuse.
    const long = daysInclusive(p.start, p.end) > MAX_RANGE_DAYS;
    setTooLong(long);
    if (long) return setNote("");
    setNote(periodNote(p, next.start ? "start" : "end", moved));
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
              ref={startInput}
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
        data-testid="period-note"
      >
        {tooLong
          ? `O período pode ter no máximo ${MAX_RANGE_DAYS} dias: escolha datas mais próximas.`
          : note || `Até ${MAX_RANGE_DAYS} dias.`}
      </p>
      <div className="period-presets" role="group" aria-label="Períodos rápidos">
        {presets.map((p) => (
          <button
            key={p.id}
            type="button"
            className="chip"
            aria-pressed={p.pressed}
            onClick={() => {
              setTooLong(false);
              setNote("");
              onChange({ ...p.range, preset: p.id, filters: period.filters });
            }}
          >
            {p.label}
          </button>
        ))}
        <button
          type="button"
          className="chip"
          aria-pressed={custom}
          title="Escolha as datas inicial e final"
          onClick={() => {
            // The dates stay; the address names them instead of a preset.
            if (period.preset) onChange({ start: period.start, end: period.end, filters: period.filters });
            startInput.current?.focus();
            try {
              startInput.current?.showPicker?.();
            } catch {
              // Some browsers refuse the picker here; the focused field is enough.
            }
          }}
        >
          Personalizado
        </button>
      </div>
    </section>
  );
}
