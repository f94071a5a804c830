import type { Db } from "../db/client.ts";
import { insertClick, insertConversion, insertVisit } from "../db/tracking.ts";

export interface TrackInput {
  source: string;
  sessionId: string;
  utmSource: string | null;
  utmCampaign: string | null;
  utmMedium: string | null;
}

export interface VisitInput extends TrackInput {
  utmTerm: string | null;
  utmContent: string | null;
}

export type TrackKind = "visit" | "click" | "conversion";

/** Records one first-party event, stamped with the server's clock and the visitor key (never the IP). */
export async function recordEvent(
  db: Db,
  kind: TrackKind,
  input: TrackInput | VisitInput,
  visitorKey: string,
  now: Date,
): Promise<void> {
  const base = { ...input, visitorKey, occurredAt: now };
  if (kind === "visit") {
    const v = input as VisitInput;
    await insertVisit(db, { ...base, utmTerm: v.utmTerm ?? null, utmContent: v.utmContent ?? null });
  } else if (kind === "click") {
    await insertClick(db, base);
  } else {
    await insertConversion(db, base);
  }
}
