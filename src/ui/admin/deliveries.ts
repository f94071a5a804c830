// The dashboard's view of lead deliveries: types, and queries that fetch every visible lead card's
// deliveries in one request (cards ask one by one; calls made in the same tick are sent together).
import { useQuery } from "@tanstack/react-query";
import { getJson } from "./api.ts";

export type Destination = "webhook" | "pipefy" | "trello" | "email";

export const DESTINATION_NAMES: Record<Destination, string> = {
  webhook: "Webhook",
  pipefy: "Pipefy",
  trello: "Trello",
  email: "E-mail",
};

export interface Delivery {
  leadId: number;
  destination: Destination;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  deliveredAt: string | null;
  nextAttemptAt: string | null;
  lastError: string | null;
  lastFailureAt: string | null;
}

export interface DestinationHealth {
  destination: Destination;
  lastDeliveredAt: string | null;
  lastFailureAt: string | null;
  lastError: string | null;
  pending: number;
  failed: number;
}

/** How often a card with a delivery still pending asks again. */
const PENDING_REFRESH_MS = 3000;
const MAX_IDS = 100;

let batch: { ids: Set<number>; result: Promise<Map<number, Delivery[]>> } | null = null;

async function fetchDeliveries(ids: number[]): Promise<Map<number, Delivery[]>> {
  const byLead = new Map<number, Delivery[]>();
  for (let i = 0; i < ids.length; i += MAX_IDS) {
    const { deliveries } = await getJson<{ deliveries: Delivery[] }>(
      `/api/admin/deliveries?leads=${ids.slice(i, i + MAX_IDS).join(",")}`,
    );
    for (const d of deliveries) byLead.set(d.leadId, [...(byLead.get(d.leadId) ?? []), d]);
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
    queryFn: () => getJson<{ destinations: DestinationHealth[] }>("/api/admin/destinations"),
    select: (data) => data.destinations,
  });
}
