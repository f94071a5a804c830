// The dashboard's glossary: each figure's one name and one formula, used by every card, table and tooltip
// (docs/METRICS.md says the same in prose). A new figure gets its entry here before any card shows it.
//
// A conversion is recorded only for a stored lead of its session, so the server counts conversions as the
// stored leads themselves (db/dashboard_queries.ts): "Conversões" and "Leads" are one count, dated by when the form
// was sent, attributed to the last touch (the session that sent it), and every rate is that count ÷ plan
// clicks. Plan clicks and leads are per channel and per UTM source by the session's touch, like visits.
import { ratePercent } from "./dashboard_math.ts";

export interface MetricTerm {
  /** The name every card and column uses. */
  name: string;
  /** What the figure counts, exactly: the tooltip on it. */
  tip: string;
}

/** Every figure the dashboard shows, by id. */
export const METRICS = {
  uniqueVisitors: {
    name: "Visitantes únicos",
    tip:
      "Pessoas diferentes que abriram o site no período, contadas pelo endereço IP (guardado só como uma " +
      "chave anônima que muda a cada mês).",
  },
  visitorsPerDay: {
    name: "Média de visitantes por dia",
    tip: "Soma dos visitantes únicos de cada dia ÷ número de dias com visitas no período.",
  },
  // Page views keep the id `visits` (the API's field and the rankings' "N visitas" count them).
  visits: {
    name: "Visualizações de página",
    tip: "Cada página aberta no site conta uma, também quando a mesma pessoa volta a ela; as listas que " +
      'contam visualizações de página escrevem "N visitas".',
  },
  sessions: {
    name: "Visitas",
    tip:
      "Sessões: as páginas vistas por uma aba do navegador num mesmo dia (uma sessão que passa da meia-noite " +
      "conta uma visita em cada dia).",
  },
  pagesPerVisit: {
    name: "Páginas por visita",
    tip: "Visualizações de página ÷ visitas, com uma casa decimal.",
  },
  bounceRate: {
    name: "Taxa de rejeição",
    tip: "Visitas com uma só página vista e nenhum clique ÷ visitas × 100, com uma casa decimal.",
  },
  timeOnPage: {
    name: "Tempo na página",
    tip: "Tempo em que a página ficou visível na tela (aba em segundo plano não conta) ÷ visualizações da " +
      "página: a média por visualização.",
  },
  visitDuration: {
    name: "Duração da visita",
    tip: "Média: tempo visível de todas as páginas ÷ visitas. Média, e não mediana, porque é exata para " +
      "qualquer período somando os dias; visitas sem tempo medido (página fechada sem enviar) contam zero.",
  },
  liveVisitors: {
    name: "Visitantes agora",
    tip:
      "Visitantes únicos (pelo endereço IP) com uma página aberta nos últimos 5 minutos, cada um na última " +
      "página que abriu.",
  },
  entries: {
    name: "Entradas",
    tip: "Sessões que começaram na página: a primeira página vista ao chegar ao site (de outro site, de um " +
      "link com UTM ou digitando o endereço).",
  },
  planClicks: {
    name: "Cliques nos planos",
    tip: "Cliques nos botões dos planos e no do especialista; cada clique abre o formulário de lead. Uma " +
      "pessoa pode clicar mais de uma vez.",
  },
  whatsappClicks: {
    name: "Cliques no WhatsApp",
    tip: "Vezes que alguém clicou em um botão ou link do site que abre uma conversa no WhatsApp (fora os " +
      "botões dos planos e do especialista, que abrem o formulário). Uma pessoa pode clicar mais de uma vez.",
  },
  conversions: {
    name: "Conversões",
    tip:
      "Formulários de lead enviados e gravados no período: cada conversão é um lead, então este número é " +
      "sempre igual ao de leads.",
  },
  leads: {
    name: "Leads",
    tip: "Formulários de lead enviados e gravados no período, pela data de envio; por canal e por origem, " +
      "pela sessão em que o formulário foi enviado (último toque).",
  },
  totalLeads: {
    name: "Total de leads",
    tip: "Leads gravados no período, pela data de envio.",
  },
  periodLeads: {
    name: "Leads no período selecionado",
    tip: "Soma dos leads de cada dia do gráfico; igual ao total de leads do período.",
  },
  leadsPerDay: {
    name: "Média por dia",
    tip: "Leads do período ÷ número de dias do gráfico.",
  },
  conversionRate: {
    name: "Taxa de conversão",
    tip: "Conversões (leads) ÷ cliques nos planos × 100, com uma casa decimal; 0% quando não houve cliques.",
  },
} as const satisfies Record<string, MetricTerm>;

export type MetricId = keyof typeof METRICS;

/** Taxa de conversão: conversions (stored leads) ÷ plan clicks × 100, one decimal, 0 without clicks. */
export function conversionRate(conversions: number, clicks: number): number {
  return ratePercent(conversions, clicks);
}

/** Words the dashboard writes the same way everywhere. */
export const WORDS = {
  /** A session with no UTM source and no referring site (stored source "direto"). */
  direct: "Direto",
  /** A click or lead without a UTM source, in the conversion-by-source table. */
  noUtmSource: "Sem origem UTM",
  samePrevious: "igual ao período anterior",
  noPrevious: "sem dados no período anterior",
} as const;

/** The stored traffic source as the dashboard shows it ("direto" is the direct session's). */
export function sourceLabel(source: string): string {
  return source === "direto" ? WORDS.direct : source;
}

/** A touch as "source / medium", or "Direto" alone for a direct session (its medium is "(none)"). */
export function touchLabel(source: string, medium: string): string {
  if (source === "direto") return WORDS.direct;
  return medium && medium !== "(none)" && medium !== "(not set)" ? `${source} / ${medium}` : source;
}
