import { useEffect, useState } from "react";
import { Card, LoadError } from "./Card.tsx";
import { formatInt, formatSubmitted, visibleText } from "./format.ts";
import { type Period, useLeads } from "./queries.ts";
import type { Lead } from "./api.ts";
import { LeadDeliveries } from "./LeadDeliveries.tsx";

const PAGE_SIZE = 25;
const PLAN_NAMES: Record<string, string> = {
  micro: "Micro",
  pro: "Pro",
  premium: "Premium",
  enterprise: "Especialista",
  unknown: "Desconhecido",
};

function LeadCard({ lead }: { lead: Lead }) {
  const plan = PLAN_NAMES[lead.plan] ? lead.plan : "unknown";
  const utm = [["Origem", lead.utmSource], ["Campanha", lead.utmCampaign], ["Mídia", lead.utmMedium]].filter(
    ([, v]) => v,
  );
  return (
    <li className="lead">
      <div className="lead-head">
        <p className="lead-name">{visibleText(lead.name)}</p>
        <span className={`plan-badge plan-${plan}`}>{visibleText(lead.planLabel || PLAN_NAMES[plan])}</span>
      </div>
      <p className="lead-line">
        <a href={`mailto:${lead.email}`}>{visibleText(lead.email)}</a>
      </p>
      <p className="lead-line">{visibleText(lead.whatsapp)}</p>
      <p className="lead-date admin-muted">{formatSubmitted(lead.submittedAt)}</p>
      {utm.length > 0 && (
        <p className="lead-utm">
          {utm.map(([k, v]) => (
            <span key={k}>
              {k}: <strong>{visibleText(v!)}</strong>
            </span>
          ))}
        </p>
      )}
      <LeadDeliveries leadId={lead.id} />
    </li>
  );
}

/** Section 6: the period's leads, newest first, searchable and paginated on the server (fine at 50,000). */
export function LeadList({ period }: { period: Period }) {
  const [typed, setTyped] = useState("");
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(0);
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), 300);
    return () => clearTimeout(timer);
  }, [typed]);
  useEffect(() => setPage(0), [search, period.start, period.end]);
  const leads = useLeads(period, search, page, PAGE_SIZE);
  const total = leads.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const exportHref = `/api/leads/export.csv?${new URLSearchParams({
    startDate: period.start,
    endDate: period.end,
    ...(search ? { q: search } : {}),
  })}`;
  return (
    <Card
      id="leads"
      title="Leads"
      subtitle={leads.data ? `${formatInt(total)} ${total === 1 ? "lead" : "leads"} no período` : undefined}
      actions={<a className="btn btn-outline btn-small" href={exportHref} download>Exportar CSV</a>}
    >
      <label className="admin-field search-field">
        <span className="visually-hidden">Buscar leads</span>
        <input
          type="search"
          placeholder="Buscar por nome, email ou WhatsApp"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
      </label>
      {leads.isError
        ? <LoadError onRetry={() => leads.refetch()} />
        : leads.isPending
        ? <p className="card-loading" role="status">Carregando leads...</p>
        : leads.data.items.length === 0
        ? <p className="card-empty">Nenhum lead encontrado</p>
        : (
          <>
            <ul className="lead-list" tabIndex={0} aria-label="Lista de leads" aria-busy={leads.isFetching}>
              {leads.data.items.map((lead) => <LeadCard key={lead.id} lead={lead} />)}
            </ul>
            {pages > 1 && (
              <nav className="pager" aria-label="Páginas de leads">
                <button
                  type="button"
                  className="btn btn-outline btn-small"
                  disabled={page === 0}
                  onClick={() => setPage(page - 1)}
                >
                  Anterior
                </button>
                <span data-testid="lead-page">Página {page + 1} de {formatInt(pages)}</span>
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
          </>
        )}
    </Card>
  );
}
