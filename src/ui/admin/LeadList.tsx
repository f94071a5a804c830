import { type FormEvent, useEffect, useState } from "react";
import { Card, LoadError } from "./Card.tsx";
import { formatInt, formatSubmitted, mailtoHref, visibleText } from "./format.ts";
import { type LeadFilters, leadParams, type Period, useLeads, useRanking } from "./queries.ts";
import type { Lead } from "../../shared/admin_schemas.ts";
import { LeadDeliveries } from "./LeadDeliveries.tsx";
import { LeadWhatsapp } from "./LeadWhatsapp.tsx";
import { channelLabel } from "../../shared/channels.ts";
import { touchLabel } from "../../shared/metrics.ts";
import type { Lang } from "../../shared/languages.ts";

type WhatsAppLinks = typeof import("../../shared/whatsapp_link.ts");
// The number plans of every country (libphonenumber-js, ≈ 50 KB gzip) load in their own chunk once a lead
// is shown, off the sign-in path; until then a number shows as plain text.
let links: WhatsAppLinks | undefined;
let loading: Promise<WhatsAppLinks> | undefined;
function useWhatsAppLinks(): WhatsAppLinks | undefined {
  const [loaded, setLoaded] = useState(links);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    loading ??= import("../../shared/whatsapp_link.ts").then((m) => links = m);
    loading.then((m) => live && setLoaded(m), () => {});
    return () => {
      live = false;
    };
  }, [loaded]);
  return loaded;
}

const PAGE_SIZE = 25;

/** One touch of a lead: its channel, then source / medium, campaign and landing page. */
function TouchLine({ title, lead, t }: { title: string; lead: Lead; t: "first" | "last" }) {
  const channel = lead[`${t}Channel`];
  if (!channel) return null;
  const campaign = lead[`${t}Campaign`];
  const landing = lead[`${t}LandingPage`];
  return (
    <p className="lead-touch" data-testid={`lead-${t}-touch`}>
      <span className="lead-touch-title">{title}</span>
      <strong>{channelLabel(channel)}</strong>
      <span>
        {visibleText(touchLabel(lead[`${t}Source`] ?? "", lead[`${t}Medium`] ?? ""))}
      </span>
      {campaign && <span>Campanha: {visibleText(campaign)}</span>}
      {landing && <span>Entrada: {visibleText(landing)}</span>}
    </p>
  );
}
/**
 * The lead's WhatsApp number as typed, linked to wa.me when it reads as one number for sure (in the country
 * of the language of the page the form was sent from); plain text otherwise.
 */
function WhatsAppNumber({ lead }: { lead: Lead }) {
  const m = useWhatsAppLinks();
  const lang: Lang | undefined = m?.langOfPage(lead.page ?? lead.lastLandingPage);
  const href = m && lang ? m.whatsappHref(lead.whatsapp, lang) : null;
  if (!href) return <span data-testid="lead-whatsapp-plain">{visibleText(lead.whatsapp)}</span>;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      data-testid="lead-whatsapp"
      aria-label={`Conversar no WhatsApp: ${visibleText(lead.whatsapp)}`}
    >
      {visibleText(lead.whatsapp)}
    </a>
  );
}

/** Where the lead came from: its last touch's channel and source / medium; the UTM source on older leads. */
function LastTouch({ lead }: { lead: Lead }) {
  if (lead.lastChannel) {
    return (
      <span data-testid="lead-origin">
        <strong>{channelLabel(lead.lastChannel)}</strong>
        <br />
        {visibleText(touchLabel(lead.lastSource ?? "", lead.lastMedium ?? ""))}
      </span>
    );
  }
  return lead.utmSource
    ? <span data-testid="lead-origin">{visibleText(lead.utmSource)}</span>
    : <span className="admin-muted">—</span>;
}

const PLAN_NAMES: Record<string, string> = {
  micro: "Micro",
  pro: "Pro",
  premium: "Premium",
  enterprise: "Especialista",
  unknown: "Desconhecido",
};

function LeadCard({ lead }: { lead: Lead }) {
  const plan = PLAN_NAMES[lead.plan] ? lead.plan : "unknown";
  const mailto = mailtoHref(lead.email);
  const utm = [
    ["Origem", lead.utmSource],
    ["Campanha", lead.utmCampaign],
    ["Mídia", lead.utmMedium],
    ["Criativo", lead.utmContent],
    ["Palavra-chave", lead.utmTerm],
    ["Estado (DDD)", lead.state],
  ].filter(
    ([, v]) => v,
  );
  return (
    <li className="lead">
      <div className="lead-head">
        <p className="lead-name">{visibleText(lead.name)}</p>
        <span className={`plan-badge plan-${plan}`}>{visibleText(lead.planLabel || PLAN_NAMES[plan])}</span>
      </div>
      <p className="lead-line">
        {mailto ? <a href={mailto}>{visibleText(lead.email)}</a> : visibleText(lead.email)}
      </p>
      <p className="lead-line">
        <WhatsAppNumber lead={lead} />
      </p>
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
      {(lead.firstChannel || lead.lastChannel) && (
        <div className="lead-touches">
          <TouchLine title="Primeiro toque" lead={lead} t="first" />
          <TouchLine title="Último toque" lead={lead} t="last" />
        </div>
      )}
      <LeadWhatsapp lead={lead} />
      <LeadDeliveries leadId={lead.id} />
    </li>
  );
}

/** The compact view: one row per lead (name, plan, contact, origin, date). */
function LeadTable({ leads }: { leads: Lead[] }) {
  return (
    <div className="table-wrap lead-table-wrap" tabIndex={0} role="region" aria-label="Tabela de leads">
      <table className="lead-table">
        <thead>
          <tr>
            <th scope="col">Nome</th>
            <th scope="col">Plano</th>
            <th scope="col">Contato</th>
            <th scope="col">Origem</th>
            <th scope="col">Criativo / palavra-chave</th>
            <th scope="col">Data</th>
          </tr>
        </thead>
        <tbody>
          {leads.map((lead) => {
            const plan = PLAN_NAMES[lead.plan] ? lead.plan : "unknown";
            const mailto = mailtoHref(lead.email);
            return (
              <tr key={lead.id} className="lead-row">
                <th scope="row" className="lead-name">{visibleText(lead.name)}</th>
                <td>
                  <span className={`plan-badge plan-${plan}`}>
                    {visibleText(lead.planLabel || PLAN_NAMES[plan])}
                  </span>
                </td>
                <td className="lead-line">
                  {mailto ? <a href={mailto}>{visibleText(lead.email)}</a> : visibleText(lead.email)}
                  <br />
                  <WhatsAppNumber lead={lead} />
                  {lead.state && (
                    <span className="admin-muted" data-testid="lead-state">{` · ${lead.state}`}</span>
                  )}
                </td>
                <td className="lead-line">
                  <LastTouch lead={lead} />
                </td>
                <td className="lead-line" data-testid="lead-utm-detail">
                  {lead.utmContent || lead.utmTerm
                    ? [lead.utmContent, lead.utmTerm].filter(Boolean).map((v) => visibleText(v!)).join(" / ")
                    : <span className="admin-muted">—</span>}
                </td>
                <td className="lead-date admin-muted">{formatSubmitted(lead.submittedAt)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * "Página 3 de 81" with previous, next and a page to jump to; a page past the last goes to the last and
 * says so ("A página 99 não existe; última: 55."), anything else that is no page is answered in words too.
 */
function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  const [typed, setTyped] = useState("");
  const [note, setNote] = useState("");
  const jump = (event: FormEvent) => {
    event.preventDefault();
    const n = Number(typed);
    if (typed.trim() === "") setNote(`Digite uma página de 1 a ${formatInt(pages)}.`);
    else if (Number.isInteger(n) && n > pages) {
      setNote(`A página ${formatInt(n)} não existe; última: ${formatInt(pages)}.`);
      onPage(pages - 1);
    } else if (Number.isInteger(n) && n >= 1) {
      setNote("");
      onPage(n - 1);
    } else setNote(`Digite uma página de 1 a ${formatInt(pages)}.`);
    setTyped("");
  };
  return (
    <nav className="pager" aria-label="Páginas de leads">
      <button
        type="button"
        className="btn btn-outline btn-small"
        disabled={page === 0}
        onClick={() => {
          setNote("");
          onPage(page - 1);
        }}
      >
        Anterior
      </button>
      <span data-testid="lead-page">Página {page + 1} de {formatInt(pages)}</span>
      {/* noValidate: the browser's own bubble for a number past `max` would swallow the jump silently. */}
      <form className="page-jump" onSubmit={jump} noValidate>
        <label>
          <span className="visually-hidden">Ir para a página</span>
          <input
            type="number"
            inputMode="numeric"
            min={1}
            max={pages}
            placeholder="Pág."
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
        </label>
        <button type="submit" className="btn btn-outline btn-small">Ir</button>
      </form>
      <button
        type="button"
        className="btn btn-outline btn-small"
        disabled={page + 1 >= pages}
        onClick={() => {
          setNote("");
          onPage(page + 1);
        }}
      >
        Próxima
      </button>
      {/* Last: on a line of its own under the buttons, which stay on one line. */}
      <p className="page-note" role="status" data-testid="page-note">{note}</p>
    </nav>
  );
}

type View = "cards" | "table";

/**
 * Section 6: the period's leads, searchable, filterable by plan and UTM source, newest or oldest first,
 * as cards or as a compact table, paginated on the server (fine at 50,000).
 */
export function LeadList({ period }: { period: Period }) {
  const [typed, setTyped] = useState("");
  const [filters, setFilters] = useState<LeadFilters>({
    search: "",
    plan: "",
    utmSource: "",
    sort: "newest",
  });
  const [typedSource, setTypedSource] = useState("");
  const [view, setView] = useState<View>("cards");
  // The page belongs to the list it was chosen in: other filters or another period start at page 0 in the
  // same render, so the old page is never asked for under the new filters.
  const listKey = leadParams(period, filters).toString();
  const [paged, setPaged] = useState({ listKey, page: 0 });
  const page = paged.listKey === listKey ? paged.page : 0;
  const setPage = (next: number) => setPaged({ listKey, page: next });
  useEffect(() => {
    const timer = setTimeout(
      () => setFilters((f) => ({ ...f, search: typed.trim(), utmSource: typedSource.trim() })),
      300,
    );
    return () => clearTimeout(timer);
  }, [typed, typedSource]);
  const leads = useLeads(period, filters, page, PAGE_SIZE);
  const sources = useRanking("utm-source", period);
  const total = leads.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const exportHref = `/api/leads/export.csv?${leadParams(period, filters)}`;
  return (
    <Card
      id="leads"
      title="Leads"
      subtitle={leads.isError || !leads.data
        ? undefined
        : leads.isPlaceholderData
        ? "Atualizando..."
        : `${formatInt(total)} ${total === 1 ? "lead" : "leads"} no período`}
      actions={
        <div className="lead-actions">
          <div className="view-toggle" role="group" aria-label="Exibição">
            <button
              type="button"
              className="chip"
              aria-pressed={view === "cards"}
              onClick={() => setView("cards")}
            >
              Cartões
            </button>
            <button
              type="button"
              className="chip"
              aria-pressed={view === "table"}
              onClick={() => setView("table")}
            >
              Tabela
            </button>
          </div>
          <a className="btn btn-outline btn-small" href={exportHref} download>Exportar CSV</a>
        </div>
      }
    >
      <div className="lead-filters">
        <label className="admin-field search-field">
          <span className="visually-hidden">Buscar leads</span>
          <input
            type="search"
            placeholder="Buscar por nome, email ou WhatsApp"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
        </label>
        <label className="admin-field compact">
          <span>Plano</span>
          <select value={filters.plan} onChange={(e) => setFilters({ ...filters, plan: e.target.value })}>
            <option value="">Todos</option>
            {Object.entries(PLAN_NAMES).map(([value, name]) => (
              <option key={value} value={value}>{name}</option>
            ))}
          </select>
        </label>
        <label className="admin-field compact">
          <span>Origem (utm_source)</span>
          <input
            type="text"
            list="lead-sources"
            placeholder="Todas (parte do nome)"
            title="Leads cuja origem UTM contém este texto, em maiúsculas ou minúsculas"
            value={typedSource}
            onChange={(e) => setTypedSource(e.target.value)}
          />
          <datalist id="lead-sources">
            {sources.data?.map((s) => <option key={s.utmSource} value={s.utmSource} />)}
          </datalist>
        </label>
        <label className="admin-field compact">
          <span>Ordem</span>
          <select
            value={filters.sort}
            onChange={(e) => setFilters({ ...filters, sort: e.target.value as LeadFilters["sort"] })}
          >
            <option value="newest">Mais recentes primeiro</option>
            <option value="oldest">Mais antigos primeiro</option>
          </select>
        </label>
      </div>
      {leads.isError
        ? <LoadError onRetry={() => leads.refetch()} />
        : leads.isPending
        ? <p className="card-loading" role="status">Carregando leads...</p>
        : leads.data.items.length === 0
        ? <p className="card-empty">Nenhum lead encontrado</p>
        : (
          <>
            {view === "table" ? <LeadTable leads={leads.data.items} /> : (
              <ul
                className="lead-list"
                tabIndex={0}
                aria-label="Lista de leads"
                aria-busy={leads.isFetching}
              >
                {leads.data.items.map((lead) => <LeadCard key={lead.id} lead={lead} />)}
              </ul>
            )}
            {pages > 1 && <Pager page={page} pages={pages} onPage={setPage} />}
          </>
        )}
    </Card>
  );
}
