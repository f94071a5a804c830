import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorText, sendJson } from "./api.ts";
import { formatDayTime, formatUpcoming } from "./format.ts";
import { type Delivery, DESTINATION_NAMES, useDestinations, useLeadDeliveries } from "./deliveries.ts";
import { useToast } from "./toast.tsx";

/** How a delivery reads on the lead card: its badge (and colour), the line beside it, and "Reenviar". */
export interface DeliveryLine {
  tone: "delivered" | "pending" | "failed";
  label: "Entregue" | "Pendente" | "Falhou";
  detail: string | null;
  resend: boolean;
}

/**
 * What the sales team needs to know: arrived (when), still on its way (the next try, when one failed), or
 * failed for good (why). A delivery being retried is pending, never "Falhou", as in the destinations panel.
 */
export function deliveryLine(d: Delivery, now = new Date()): DeliveryLine {
  switch (d.state) {
    case "delivered":
      return {
        tone: "delivered",
        label: "Entregue",
        detail: d.deliveredAt && formatDayTime(d.deliveredAt),
        resend: false,
      };
    case "failed":
      return { tone: "failed", label: "Falhou", detail: d.lastError, resend: true };
    case "sending":
      return {
        tone: "pending",
        label: "Pendente",
        detail: `Enviando, tentativa ${d.nextAttempt}`,
        resend: false,
      };
    case "retrying": {
      const next = d.nextAttemptAt
        ? `Tentando de novo ${formatUpcoming(d.nextAttemptAt, now)}, tentativa ${d.nextAttempt}`
        : `Tentativa ${d.nextAttempt} em breve`;
      return {
        tone: "pending",
        label: "Pendente",
        detail: d.lastError ? `${next} · último erro: ${d.lastError}` : next,
        resend: true,
      };
    }
    case "queued":
      return { tone: "pending", label: "Pendente", detail: null, resend: false };
  }
}

function DeliveryRow({ delivery }: { delivery: Delivery }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const line = deliveryLine(delivery);
  const name = DESTINATION_NAMES[delivery.destination];
  const resend = useMutation({
    mutationFn: () =>
      sendJson("POST", "/api/admin/deliveries/resend", {
        leadId: delivery.leadId,
        destination: delivery.destination,
      }),
    onSuccess: () =>
      toast({ title: "Reenvio agendado", description: `${name}: o lead será enviado de novo em instantes.` }),
    onError: (error) =>
      toast({
        title: "Erro",
        description: errorText(error) ?? `Não foi possível reenviar para ${name}.`,
        variant: "destructive",
      }),
    // Either way the delivery line and the destinations panel are read again.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ["deliveries", delivery.leadId] });
      void queryClient.invalidateQueries({ queryKey: ["destinations"] });
    },
  });

  return (
    <li className={`delivery delivery-${line.tone}`} data-testid={`delivery-${delivery.destination}`}>
      <span className="delivery-name">{name}</span>
      <span className="delivery-status">{line.label}</span>
      {line.detail && <span className="delivery-detail">{line.detail}</span>}
      {line.resend && (
        <button
          type="button"
          className="btn btn-outline btn-small"
          onClick={() => resend.mutate()}
          disabled={resend.isPending}
        >
          Reenviar<span className="visually-hidden">{` para ${name}`}</span>
        </button>
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
