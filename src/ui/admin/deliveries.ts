// The dashboard's view of lead deliveries: types, and queries that fetch every visible lead card's
// deliveries in one request (cards ask one by one; calls made in the same tick are sent together).
import { useQuery } from "@tanstack/react-query";
import {
  deliveries,
  DELIVERIES_MAX_LEADS,
  type Delivery,
  type Destination,
  type DestinationHealth,
  destinations,
} from "../../shared/admin_schemas.ts";
import { getJson } from "./api.ts";

export type { Delivery, Destination, DestinationHealth };

export const DESTINATION_NAMES: Record<Destination, string> = {
  webhook: "Webhook",
  pipefy: "Pipefy",
  trello: "Trello",
  email: "E-mail",
  whatsapp: "WhatsApp",
  whatsapp_sales: "WhatsApp (vendas)",
};

/** How often a card with a delivery still pending asks again. */
const PENDING_REFRESH_MS = 3000;
const MAX_IDS = DELIVERIES_MAX_LEADS;

let batch: { ids: Set<number>; result: Promise<Map<number, Delivery[]>> } | null = null;

async function fetchDeliveries(ids: number[]): Promise<Map<number, Delivery[]>> {
  const byLead = new Map<number, Delivery[]>();
  for (let i = 0; i < ids.length; i += MAX_IDS) {
    const page = await getJson(
      `/api/admin/deliveries?leads=${ids.slice(i, i + MAX_IDS).join(",")}`,
      deliveries,
    );
    for (const d of page.deliveries) byLead.set(d.leadId, [...(byLead.get(d.leadId) ?? []), d]);
  }
  return byLead;
}

function deliveriesOf(leadId: number): Promise<Delivery[]> {
  if (!batch) {
    const ids = new Set<number>();
    batch = {
      ids,
      result: new Promise((resolve) => setTimeout(resolve, 0)).then(() => {
        batch = null;
        return fetchDeliveries([...ids]);
      }),
    };
  }
  batch.ids.add(leadId);
  return batch.result.then((byLead) => byLead.get(leadId) ?? []);
}

/** One lead's deliveries; refreshed every few seconds while one of them is pending. */
export function useLeadDeliveries(leadId: number) {
  return useQuery({
    queryKey: ["deliveries", leadId],
    queryFn: () => deliveriesOf(leadId),
    refetchInterval: (query) =>
      query.state.data?.some((d) => d.status === "pending") ? PENDING_REFRESH_MS : false,
  });
}

/** The configured destinations and their last success and failure. */
export function useDestinations() {
  return useQuery({
    queryKey: ["destinations"],
    queryFn: () => getJson("/api/admin/destinations", destinations),
    select: (data) => data.destinations,
  });
}
