// The lead modal's island: hydrated when a visitor first reaches for a plan button (src/client/lead.ts), it
// listens for the open event and loads the dialog itself on first use.
import { lazy, Suspense, useEffect, useState } from "react";
import type { Lang } from "../../shared/languages.ts";
import { LEAD_OPEN_EVENT, type LeadIntent } from "./lead_events.ts";
import type { Strings } from "./strings.ts";

const LeadDialog = lazy(() => import("./LeadDialog.tsx"));

export interface LeadModalProps {
  lang: Lang;
  strings: Strings;
  /** Called once the modal listens for the open event. */
  onReady?: () => void;
}

/** Renders nothing (also on the server) until a pricing button opens it. */
export function LeadModal({ lang, strings, onReady }: LeadModalProps) {
  const [intent, setIntent] = useState<LeadIntent | null>(null);
  const [openCount, setOpenCount] = useState(0);

  useEffect(() => {
    const onOpen = (event: Event) => {
      const detail = (event as CustomEvent<LeadIntent>).detail;
      if (!detail) return;
      setIntent(detail);
      setOpenCount((n) => n + 1);
    };
    addEventListener(LEAD_OPEN_EVENT, onOpen);
    onReady?.();
    return () => removeEventListener(LEAD_OPEN_EVENT, onOpen);
  }, []);

  if (!intent) return null;
  return (
    <Suspense fallback={null}>
      <LeadDialog
        key={openCount}
        lang={lang}
        strings={strings}
        intent={intent}
        onClosed={() => setIntent(null)}
      />
    </Suspense>
  );
}
