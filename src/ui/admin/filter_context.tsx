// Click-to-filter: any row of a ranking or panel adds its value to the view's filters (shared/filters.ts),
// through this context, which the dashboard provides with its view (kept in the address).
import { createContext, type ReactNode, useContext } from "react";
import { FILTER_LABELS, type FilterKey, filterValueLabel } from "../../shared/filters.ts";

/** Adds (or replaces) one filter of the view; a no-op outside the dashboard. */
export const AddFilter = createContext<(key: FilterKey, value: string) => void>(() => {});

/** A row's name as a button that filters the whole dashboard to it. */
export function FilterButton(
  { filterKey, value, children, after }: {
    filterKey: FilterKey;
    value: string;
    children: ReactNode;
    /** Runs after the filter is added (a dialog closes). */
    after?: () => void;
  },
) {
  const add = useContext(AddFilter);
  const what = `${FILTER_LABELS[filterKey]}: ${filterValueLabel(filterKey, value)}`;
  return (
    <button
      type="button"
      className="row-filter"
      title={`Filtrar o painel por ${what}`}
      aria-label={`Filtrar por ${what}`}
      data-filter={filterKey}
      onClick={() => {
        add(filterKey, value);
        after?.();
      }}
    >
      {children}
    </button>
  );
}
