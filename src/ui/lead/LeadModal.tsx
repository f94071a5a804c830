// The lead modal's always-present part: it listens for pricing buttons, records the click at once and
// loads the dialog itself on first use, so pages carry none of the form's code before a visitor needs it.
import { lazy, Suspense, useEffect, useState } from "react";
import type { Lang } from "../../shared/languages.ts";
import { LEAD_OPEN_EVENT, type LeadIntent } from "./lead_events.ts";
import { trackEvent } from "../../browser/analytics.ts";
import { trackClick } from "../../browser/tracking.ts";

const LeadDialog = lazy(() => import("./LeadDialog.tsx"));

/** Click source of spec section 7: `pricing_{plan key}_plan` or `pricing_specialist_enterprise`. */
export function clickSource(intent: LeadIntent): string {
  return intent.kind === "plan" ? `pricing_${intent.planKey}_plan` : "pricing_specialist_enterprise";
}

/** Mounted once per page (in Layout); renders nothing until a pricing button opens it. */
export function LeadModal({ lang }: { lang: Lang }) {
  const [intent, setIntent] = useState<LeadIntent | null>(null);
  const [openCount, setOpenCount] = useState(0);

  useEffect(() => {
    const onOpen = (event: Event) => {
      const detail = (event as CustomEvent<LeadIntent>).detail;
      if (!detail) return;
      if (detail.kind === "plan") trackEvent("pricing_plan_click", "pricing", detail.planKey);
      else trackEvent("pricing_specialist_click", "pricing", "specialist");
      void trackClick(clickSource(detail));
      setIntent(detail);
      setOpenCount((n) => n + 1);
    };
    addEventListener(LEAD_OPEN_EVENT, onOpen);
    return () => removeEventListener(LEAD_OPEN_EVENT, onOpen);
  }, []);

  if (!intent) return null;
  return (
    <Suspense fallback={null}>
      <LeadDialog key={openCount} lang={lang} intent={intent} onClosed={() => setIntent(null)} />
    </Suspense>
  );
}
