import { startTransition, useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import { createI18n } from "../shared/i18n.ts";
import { PAGE_DATA_ID, type PageData } from "../shared/page_data.ts";
import type { PageComponent } from "../ui/pages/registry.ts";
import { PageRoot } from "../ui/PageRoot.tsx";
import { startTracking } from "./start.ts";

/** Reads the data the server embedded in the page. */
export function readPageData(): PageData {
  const node = document.getElementById(PAGE_DATA_ID);
  return JSON.parse(node?.textContent ?? "{}") as PageData;
}

/** Hydrates a public page with the translations embedded by the server: no extra request. */
export function boot(Page: PageComponent, options: { visit?: boolean } = {}): void {
  const data = readPageData();
  const i18n = createI18n(data.lang, data.resources);
  const root = document.getElementById("root");
  if (!root) return;
  // As a transition, hydration works in small slices that yield to the browser: no long task blocks
  // input while a long page hydrates. The flag is set once React has really committed.
  startTransition(() => {
    hydrateRoot(
      root,
      <>
        <PageRoot i18n={i18n} Page={Page} lang={data.lang} page={data.page} config={data.config} />
        <HydratedFlag />
      </>,
    );
  });
  startTracking(data.config, { visit: options.visit ?? true });
}

/** Marks the document once hydration has committed (tests and tools wait for it). */
function HydratedFlag() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}
