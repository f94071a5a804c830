// "Tempo até o primeiro contato" (issue 31): over the period's leads whose WhatsApp message Meta accepted,
// the median and 90th percentile of the time from the form to the message delivered and to the lead's reply,
// and per channel of the lead's last touch how many replied. Hidden when WhatsApp is not configured and
// nothing was ever measured; GET /api/tracking/first-contact (the period only: the filters do not apply).
import { useQuery } from "@tanstack/react-query";
import { Card, LoadError, Loading } from "./Card.tsx";
import { Metric } from "./Metrics.tsx";
import { getJson } from "./api.ts";
import { formatInt, formatPercent } from "./format.ts";
import type { Period } from "./queries.ts";
import { firstContact } from "../../shared/admin_schemas.ts";
import { channelLabel } from "../../shared/channels.ts";

/** A duration in seconds as people say it: "42 s", "3 min 05 s", "1 h 12 min", "2 d 3 h"; "—" for none. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return "—";
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
  if (s < 86_400) {
    return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  }
  return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`;
}

function useFirstContact(p: Period) {
  return useQuery({
    queryKey: ["first-contact", p.start, p.end],
    queryFn: () => getJson(`/api/tracking/first-contact?startDate=${p.start}&endDate=${p.end}`, firstContact),
  });
}

export function FirstContactPanel({ period }: { period: Period }) {
  const q = useFirstContact(period);
  if (q.isSuccess && !q.data.configured && q.data.messaged === 0) return null;
  return (
    <Card
      id="first-contact"
      title="Tempo até o primeiro contato"
      subtitle="Do formulário à mensagem do WhatsApp entregue e à resposta do lead, nos leads do período que receberam a mensagem; respostas por canal do último toque (os filtros não se aplicam a este painel)"
    >
      {q.isPending
        ? <Loading />
        : q.isError
        ? <LoadError onRetry={() => q.refetch()} />
        : q.data.messaged === 0
        ? <p className="card-empty">Nenhuma mensagem de WhatsApp enviada a leads do período</p>
        : (
          <>
            <div className="metric-grid first-contact-grid">
              <Metric
                label="Até a mensagem entregue (mediana)"
                value={formatDuration(q.data.toDelivered.p50)}
                hint={`90% em até ${formatDuration(q.data.toDelivered.p90)} · ${
                  formatInt(q.data.toDelivered.count)
                } ${q.data.toDelivered.count === 1 ? "entregue" : "entregues"}`}
                testId="first-contact-delivered"
              />
              <Metric
                label="Até a resposta do lead (mediana)"
                value={formatDuration(q.data.toReply.p50)}
                hint={`90% em até ${formatDuration(q.data.toReply.p90)} · ${
                  formatInt(q.data.toReply.count)
                } ${q.data.toReply.count === 1 ? "respondeu" : "responderam"}`}
                testId="first-contact-reply"
              />
            </div>
            <div className="table-wrap" tabIndex={0} role="region" aria-label="Respostas por canal">
              <table className="conversion-table first-contact-table">
                <caption className="visually-hidden">Leads que responderam no WhatsApp, por canal</caption>
                <thead>
                  <tr>
                    <th scope="col">Canal</th>
                    <th scope="col" className="num">Mensagens</th>
                    <th scope="col" className="num">Responderam</th>
                    <th scope="col" className="num">Taxa de resposta</th>
                  </tr>
                </thead>
                <tbody>
                  {q.data.channels.map((c) => (
                    <tr key={c.channel}>
                      <th scope="row">{channelLabel(c.channel)}</th>
                      <td className="num">{formatInt(c.messaged)}</td>
                      <td className="num">{formatInt(c.replied)}</td>
                      <td className="num">{formatPercent(c.replyRate)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
    </Card>
  );
}
