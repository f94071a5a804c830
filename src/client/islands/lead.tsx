// The lead modal island: React, hydrated on its own marker when a visitor first reaches for a plan button.
import { hydrateRoot } from "react-dom/client";
import { LeadModal, type LeadModalProps } from "../../ui/lead/LeadModal.tsx";

export default function hydrate(root: HTMLElement, props: unknown): Promise<void> {
  return new Promise((resolve) => {
    hydrateRoot(root, <LeadModal {...props as LeadModalProps} onReady={resolve} />);
  });
}
