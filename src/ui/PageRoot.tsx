import type { i18n } from "i18next";
import { I18nextProvider } from "react-i18next";
import type { PublicConfig } from "../shared/page_data.ts";
import type { PageComponent, PageProps } from "./pages/registry.ts";
import { PublicConfigContext } from "./public_config.ts";

/** What `#root` holds: the page with its translations and public settings (server rendering). */
export function PageRoot(
  { i18n, Page, config, ...props }: PageProps & { i18n: i18n; Page: PageComponent; config: PublicConfig },
) {
  return (
    <I18nextProvider i18n={i18n}>
      <PublicConfigContext.Provider value={config}>
        <Page {...props} />
      </PublicConfigContext.Provider>
    </I18nextProvider>
  );
}
