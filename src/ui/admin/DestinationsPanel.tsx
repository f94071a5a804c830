import { Card, LoadError } from "./Card.tsx";
import { formatInt, formatSubmitted } from "./format.ts";
import { DESTINATION_NAMES, useDestinations } from "./deliveries.ts";

/** Which destinations receive the leads, and how each is doing (no address, token or password here). */
export function DestinationsPanel() {
  const destinations = useDestinations();
  return (
    <Card id="destinos" title="Destinos dos leads" subtitle="Para onde cada novo lead é enviado">
      {destinations.isError
        ? <LoadError onRetry={() => destinations.refetch()} />
        : destinations.isPending
        ? <p className="card-loading" role="status">Carregando destinos...</p>
        : destinations.data.length === 0
        ? (
          <p className="card-empty">
            Nenhum destino configurado: os leads ficam só neste painel. Veja no README como ligar webhook,
            Pipefy, Trello ou e-mail.
          </p>
        )
        : (
          <ul className="destinations">
            {destinations.data.map((d) => (
              <li key={d.destination} className="destination" data-testid={`destination-${d.destination}`}>
                <p className="destination-name">{DESTINATION_NAMES[d.destination]}</p>
                <p>
                  Última entrega: {d.lastDeliveredAt ? formatSubmitted(d.lastDeliveredAt) : "nenhuma ainda"}
                </p>
                {d.lastFailureAt && (
                  <p className="destination-failure">
                    Última falha: {formatSubmitted(d.lastFailureAt)} — {d.lastError}
                  </p>
                )}
                <p className="admin-muted">
                  {formatInt(d.pending)} {d.pending === 1 ? "pendente" : "pendentes"} · {formatInt(d.failed)}
                  {" "}
                  {d.failed === 1 ? "falhou" : "falharam"}
                </p>
              </li>
            ))}
          </ul>
        )}
    </Card>
  );
}
