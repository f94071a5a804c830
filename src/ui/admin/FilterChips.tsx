import {
  FILTER_LABELS,
  filterEntries,
  type FilterKey,
  type Filters,
  filterValueLabel,
} from "../../shared/filters.ts";
import { visibleText } from "./format.ts";

/**
 * The view's filters as removable chips above the cards (all of them apply together, AND), or, with none,
 * how to add one.
 */
export function FilterChips(
  { filters, onRemove, onClear }: {
    filters: Filters;
    onRemove: (key: FilterKey) => void;
    onClear: () => void;
  },
) {
  const entries = filterEntries(filters);
  return (
    <section className="filter-bar" aria-label="Filtros" data-testid="filter-bar">
      {entries.length === 0
        ? (
          <p className="admin-muted filter-hint">
            Sem filtros. Clique numa linha de um ranking ou painel (canal, origem, campanha, página...) para
            filtrar todo o painel por ela.
          </p>
        )
        : (
          <>
            <span className="filter-title">
              Filtros{entries.length > 1 ? " (todos valem juntos)" : ""}:
            </span>
            <ul className="filter-chips">
              {entries.map(([key, value]) => {
                const text = `${FILTER_LABELS[key]}: ${filterValueLabel(key, value)}`;
                return (
                  <li key={key} className="filter-chip" data-filter={key}>
                    <span className="filter-chip-text" title={visibleText(text)}>
                      <span className="filter-chip-key">{FILTER_LABELS[key]}:</span>{" "}
                      <strong>{visibleText(filterValueLabel(key, value))}</strong>
                    </span>
                    <button
                      type="button"
                      className="filter-chip-remove"
                      aria-label={`Remover filtro ${visibleText(text)}`}
                      onClick={() => onRemove(key)}
                    >
                      ×
                    </button>
                  </li>
                );
              })}
            </ul>
            {entries.length > 1 && (
              <button type="button" className="btn btn-outline btn-small" onClick={onClear}>
                Limpar filtros
              </button>
            )}
          </>
        )}
    </section>
  );
}
