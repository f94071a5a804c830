import type { ReactNode } from "react";

export interface CardProps {
  id: string;
  title: string;
  subtitle?: string;
  actions?: ReactNode;
  /** Where the panel's rows download as CSV (panels.ts, panelCsvHref): a "CSV" link in the head. */
  csv?: string;
  className?: string;
  children: ReactNode;
}

/** A titled dashboard card; its heading labels the region. */
export function Card({ id, title, subtitle, actions, csv, className, children }: CardProps) {
  return (
    <section
      className={`admin-card${className ? " " + className : ""}`}
      aria-labelledby={`${id}-title`}
      id={id}
    >
      <header className="card-head">
        <div>
          <h2 id={`${id}-title`}>{title}</h2>
          {subtitle && <p className="admin-muted card-sub">{subtitle}</p>}
        </div>
        {csv
          ? (
            <div className="card-actions">
              {actions}
              <a
                className="btn btn-outline btn-small csv-link"
                href={csv}
                download
                aria-label={`Exportar ${title} em CSV`}
                data-testid={`${id}-csv`}
              >
                CSV
              </a>
            </div>
          )
          : actions}
      </header>
      {children}
    </section>
  );
}

/** What a card shows when its request failed: a plain message and a retry. */
export function LoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="card-error" role="alert">
      <p>Não foi possível carregar estes dados.</p>
      <button type="button" className="btn btn-outline btn-small" onClick={onRetry}>Tentar novamente</button>
    </div>
  );
}

/** A placeholder while a card loads. */
export function Loading({ text = "Carregando..." }: { text?: string }) {
  return <p className="card-loading" role="status">{text}</p>;
}
