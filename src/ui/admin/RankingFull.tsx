import { useEffect, useRef, useState } from "react";
import { LoadError, Loading } from "./Card.tsx";
import { formatInt, visibleText } from "./format.ts";
import type { Period, RankingItem, RankingKind } from "./queries.ts";
import { panelCsvHref, useRankingPage } from "./panels.ts";
import { Delta } from "./Delta.tsx";
import type { FilterKey } from "../../shared/filters.ts";
import { FilterButton } from "./filter_context.tsx";

const PAGE_SIZE = 25;

/**
 * A ranking row's name: cut to one line, and shown whole when tapped, clicked or chosen with the keyboard
 * (a touch screen has no hover, so no title tooltip carries the rest).
 */
export function RankName({ text, rank }: { text: string; rank: number }) {
  const [open, setOpen] = useState(false);
  return (
    <button
      type="button"
      className="rank-name"
      aria-expanded={open}
      onClick={() => setOpen(!open)}
    >
      <span className="visually-hidden">{rank}º:</span> {text}
    </button>
  );
}

/**
 * One ranked item: its place, its name and its figure, compared when it has one. With `filter`, the name is
 * a button that filters the whole dashboard to the row (`onFilter` runs after); without, it shows the whole
 * name on demand.
 */
export function RankRow({ rank, text, visits, previous, unit, filter, onFilter }: {
  rank: number;
  text: string;
  visits: number;
  previous?: number;
  unit: [string, string];
  filter?: [FilterKey, string];
  onFilter?: () => void;
}) {
  return (
    <li>
      <span className="rank" aria-hidden="true">{rank}</span>
      {filter
        ? (
          <span className="rank-name rank-name-filter" title={text}>
            <FilterButton filterKey={filter[0]} value={filter[1]} after={onFilter}>
              <span className="visually-hidden">{rank}º:</span> {text}
            </FilterButton>
          </span>
        )
        : <RankName text={text} rank={rank} />}
      <span className="rank-visits">
        {formatInt(visits)} {visits === 1 ? unit[0] : unit[1]}
        {previous !== undefined && <Delta current={visits} previous={previous} />}
      </span>
    </li>
  );
}

export interface RankingFullProps<K extends RankingKind> {
  id: string;
  title: string;
  kind: K;
  period: Period;
  /** Extra query parameters the ranking is asked with (`by=path`). */
  extra: string;
  label: (item: RankingItem<K>) => string;
  unit: [string, string];
  /** The filter a row adds when clicked, and the row's value for it (the dialog closes on the new view). */
  filter?: [FilterKey, (item: RankingItem<K>) => string];
  onClose: () => void;
}

/**
 * "Ver todos": the whole ranking in a dialog, 25 at a time, with a search over its names (on the server, so
 * a ranking of 50,000 pages reads as fast as one of 10) and its CSV.
 */
export function RankingFull<K extends RankingKind>(props: RankingFullProps<K>) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState("");
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(0);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(typed.trim());
      setPage(0);
    }, 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const q = useRankingPage(props.kind, props.period, props.extra, search, page, PAGE_SIZE, true);
  const total = q.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <dialog
      ref={dialog}
      className="ranking-dialog"
      aria-labelledby={`${props.id}-full-title`}
      onClose={props.onClose}
      data-testid={`${props.id}-full`}
    >
      <header className="card-head">
        <div>
          <h2 id={`${props.id}-full-title`}>{props.title}</h2>
          <p className="admin-muted card-sub" role="status">
            {q.data ? `${formatInt(total)} ${total === 1 ? "item" : "itens"}` : ""}
          </p>
        </div>
        <div className="card-actions">
          <a
            className="btn btn-outline btn-small"
            href={panelCsvHref(props.kind, props.period, props.extra)}
            download
            data-testid={`${props.id}-full-csv`}
          >
            CSV
          </a>
          <button type="button" className="btn btn-primary btn-small" onClick={() => dialog.current?.close()}>
            Fechar
          </button>
        </div>
      </header>
      <label className="admin-field search-field">
        <span className="visually-hidden">Buscar em {props.title}</span>
        <input
          type="search"
          placeholder="Buscar"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
      </label>
      {q.isError
        ? <LoadError onRetry={() => q.refetch()} />
        : q.isPending
        ? <Loading />
        : q.data.items.length === 0
        ? <p className="card-empty">Nada encontrado</p>
        : (
          <ol className="ranking ranking-full" aria-busy={q.isFetching}>
            {q.data.items.map((item, i) => (
              <RankRow
                key={props.label(item)}
                rank={page * PAGE_SIZE + i + 1}
                text={visibleText(props.label(item))}
                visits={item.visits}
                previous={"previousVisits" in item ? item.previousVisits : undefined}
                unit={props.unit}
                filter={props.filter && [props.filter[0], props.filter[1](item)]}
                onFilter={() => dialog.current?.close()}
              />
            ))}
          </ol>
        )}
      {pages > 1 && (
        <nav className="pager" aria-label={`Páginas de ${props.title}`}>
          <button
            type="button"
            className="btn btn-outline btn-small"
            disabled={page === 0}
            onClick={() => setPage(page - 1)}
          >
            Anterior
          </button>
          <span data-testid={`${props.id}-full-page`}>Página {page + 1} de {formatInt(pages)}</span>
          <button
            type="button"
            className="btn btn-outline btn-small"
            disabled={page + 1 >= pages}
            onClick={() => setPage(page + 1)}
          >
            Próxima
          </button>
        </nav>
      )}
    </dialog>
  );
}
