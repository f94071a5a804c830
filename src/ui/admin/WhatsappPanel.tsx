// "Cliques no WhatsApp" (an added panel, docs/PRODUCT.md, _Dashboard_): clicks on the public pages' WhatsApp
// buttons and links, counted apart from the plan clicks (docs/METRICS.md): the card with its comparison, and
// the ranking of the pages they were clicked on.
import { Card, LoadError, Loading } from "./Card.tsx";
import { Change, Metric } from "./Metrics.tsx";
import { Term } from "./Term.tsx";
import { METRICS } from "../../shared/metrics.ts";
import { formatInt, visibleText } from "./format.ts";
import { type Period, useWhatsapp } from "./queries.ts";

/** The period's WhatsApp clicks, compared with the previous period. */
export function WhatsappMetrics({ period }: { period: Period }) {
  const q = useWhatsapp(period);
  return (
    <Card
      id="whatsapp"
      title={METRICS.whatsappClicks.name}
      subtitle="Vezes que um botão ou link do site abriu uma conversa no WhatsApp"
    >
      {q.isPending
        ? <Loading />
        : q.isError
        ? <LoadError onRetry={() => q.refetch()} />
        : (
          <div className="metric-grid">
            <Metric
              label={<Term id="whatsappClicks" />}
              value={formatInt(q.data.total)}
              testId="whatsapp-clicks"
            >
              <Change current={q.data.total} previous={q.data.previous.total} vs={q.data.previous} />
            </Metric>
          </div>
        )}
    </Card>
  );
}

/** The pages with the most WhatsApp clicks (the page the button was on). */
export function WhatsappPagesRanking({ period }: { period: Period }) {
  const q = useWhatsapp(period);
  return (
    <Card
      id="rank-whatsapp-pages"
      title="Páginas com cliques no WhatsApp"
      subtitle="A página em que o botão ou link do WhatsApp foi clicado (sem os parâmetros do endereço)"
      className="ranking-card"
      actions={<Term id="whatsappClicks" />}
    >
      {q.isPending
        ? <Loading />
        : q.isError
        ? <LoadError onRetry={() => q.refetch()} />
        : q.data.pages.length === 0
        ? <p className="card-empty">Nenhum clique no WhatsApp registrado no período</p>
        : (
          <ol className="ranking">
            {q.data.pages.map((item, i) => (
              <li key={item.page}>
                <span className="rank" aria-hidden="true">{i + 1}</span>
                <span className="rank-name" title={visibleText(item.page)}>
                  <span className="visually-hidden">{i + 1}º:</span> {visibleText(item.page)}
                </span>
                <span className="rank-visits">
                  {formatInt(item.clicks)} {item.clicks === 1 ? "clique" : "cliques"}
                </span>
              </li>
            ))}
          </ol>
        )}
    </Card>
  );
}
