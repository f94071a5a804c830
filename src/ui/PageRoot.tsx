import type { i18n } from "i18next";
import { I18nextProvider } from "react-i18next";
import type { PageComponent, PageProps } from "./pages/registry.ts";

/** What `#root` holds, identical on server and client so hydration matches. */
export function PageRoot({ i18n, Page, ...props }: PageProps & { i18n: i18n; Page: PageComponent }) {
  return (
    <I18nextProvider i18n={i18n}>
      <Page {...props} />
    </I18nextProvider>
  );
}
