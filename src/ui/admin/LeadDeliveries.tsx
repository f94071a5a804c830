import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { errorText, sendJson } from "./api.ts";
import { format, parseISO } from "date-fns";
import { ptBR } from "date-fns/locale/pt-BR";
import { type Delivery, DESTINATION_NAMES, useDestinations, useLeadDeliveries } from "./deliveries.ts";
import { useToast } from "./toast.tsx";

/** "23/11 às 09:26": the lead card already shows the year. */
function when(iso: string): string {
  return format(parseISO(iso), "dd/MM 'às' HH:mm", { locale: ptBR });
}

/** What the sales team needs to know: arrived (when), still on its way, or failed (why). */
function stateOf(d: Delivery): "delivered" | "pending" | "failed" {
  if (d.status === "delivered") return "delivered";
  return d.status === "failed" || d.attempts > 0 ? "failed" : "pending";
}

function DeliveryRow({ delivery }: { delivery: Delivery }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [sending, setSending] = useState(false);
  const state = stateOf(delivery);
  const name = DESTINATION_NAMES[delivery.destination];

  async function resend() {
    setSending(true);
    try {
      await sendJson("POST", "/api/admin/deliveries/resend", {
        leadId: delivery.leadId,
        destination: delivery.destination,
      });
      toast({ title: "Reenvio agendado", description: `${name}: o lead será enviado de novo em instantes.` });
    } catch (error) {
      toast({
        title: "Erro",
        description: errorText(error) ?? `Não foi possível reenviar para ${name}.`,
        variant: "destructive",
      });
    } finally {
      setSending(false);
      await queryClient.invalidateQueries({ queryKey: ["deliveries", delivery.leadId] });
      await queryClient.invalidateQueries({ queryKey: ["destinations"] });
    }
  }

  return (
    <li className={`delivery delivery-${state}`} data-testid={`delivery-${delivery.destination}`}>
      <span className="delivery-name">{name}</span>
      {state === "delivered" && (
        <>
          <span className="delivery-status">Entregue</span>
          <span className="delivery-detail">{when(delivery.deliveredAt!)}</span>
        </>
      )}
      {state === "pending" && <span className="delivery-status">Pendente</span>}
      {state === "failed" && (
        <>
          <span className="delivery-status">Falhou</span>
          <span className="delivery-reason">
            {delivery.lastError}
            {delivery.status === "pending" && delivery.nextAttemptAt && (
              <>{" · "}nova tentativa {when(delivery.nextAttemptAt)}</>
            )}
          </span>
          <button type="button" className="btn btn-outline btn-small" onClick={resend} disabled={sending}>
            Reenviar<span className="visually-hidden">{` para ${name}`}</span>
          </button>
        </>
      )}
    </li>
  );
}

/** The lead card's deliveries, one line per configured destination; nothing when none is configured. */
export function LeadDeliveries({ leadId }: { leadId: number }) {
  const destinations = useDestinations();
  const deliveries = useLeadDeliveries(leadId);
  if (!destinations.data?.length || !deliveries.data?.length) return null;
  const order = destinations.data.map((d) => d.destination);
  const shown = deliveries.data
    .filter((d) => order.includes(d.destination))
    .sort((a, b) => order.indexOf(a.destination) - order.indexOf(b.destination));
  return (
    <ul className="lead-deliveries" aria-label="Entregas para a equipe de vendas">
      {shown.map((d) => <DeliveryRow key={d.destination} delivery={d} />)}
    </ul>
  );
}
