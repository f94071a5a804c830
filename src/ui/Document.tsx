import type { ReactNode } from "react";

export interface HeadMeta {
  title: string;
  description: string;
  keywords?: string;
  canonical?: string;
  robots: string;
  ogLocale: string;
  ogLocaleAlternates: string[];
  ogImage?: string;
  siteName: string;
  alternates: { hrefLang: string; href: string }[];
  jsonLd?: unknown[];
}

export interface DocumentProps {
  htmlLang: string;
  meta: HeadMeta;
  styles: string[];
  /** Stylesheet text inlined in the head (public pages: nothing render-blocking to fetch); replaces `styles`. */
  inlineCss?: string;
  /** The page's module script: preloaded in the head, imported by the loader at the end of the body. */
  script?: string;
  /** A small inline script run before the bootstrap (public pages: src/ui/early_tap.ts). */
  inlineScript?: string;
  preloads: string[];
  /** Font files the first paint needs (preloaded so text does not reflow when they arrive). */
  fonts?: string[];
  pageData?: string;
  children: ReactNode;
}

/**
 * Without JavaScript the header still works: the phone menu opens while its button has focus and stays while the pointer or focus is in it,
 * and the integrations list shows on hover or focus (with JavaScript, src/bundles/header.ts does this with the
 * timings of docs/PRODUCT.md, _Timings_).
 */
const NO_SCRIPT_CSS = ".site-nav:focus-within,.site-nav:hover,.menu-toggle:focus+.site-nav{display:flex}" +
  ".dropdown:hover .dropdown-menu[hidden],.dropdown:focus-within .dropdown-menu[hidden]{display:block}";

/**
 * The inline script that starts a page's module: the same text for every request, so the CSP allows it by its
 * hash, and 'strict-dynamic' passes that trust on to the module and everything it imports (a parser-inserted
 * `<script src>` would need a per-response nonce instead). At the end of the body, like a deferred module,
 * it runs once the markup before it is parsed; the module itself is fetched early, from the head's
 * modulepreload.
 */
export function moduleLoader(src: string): string {
  return `import(${JSON.stringify(src).replace(/</g, "\\u003c")})`;
}

/** The whole HTML document, server-rendered; the bootstrap script and islands act on `#root`'s markup. */
export function Document(props: DocumentProps) {
  const { meta } = props;
  return (
    <html lang={props.htmlLang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{meta.title}</title>
        <meta name="description" content={meta.description} />
        {meta.keywords && <meta name="keywords" content={meta.keywords} />}
        <meta name="robots" content={meta.robots} />
        <meta name="author" content={meta.siteName} />
        <meta name="theme-color" content="#075e54" />
        {meta.canonical && <link rel="canonical" href={meta.canonical} />}
        {meta.alternates.map((a) => (
          <link key={a.hrefLang} rel="alternate" hrefLang={a.hrefLang} href={a.href} />
        ))}
        <meta property="og:type" content="website" />
        <meta property="og:title" content={meta.title} />
        <meta property="og:description" content={meta.description} />
        {meta.canonical && <meta property="og:url" content={meta.canonical} />}
        <meta property="og:site_name" content={meta.siteName} />
        <meta property="og:locale" content={meta.ogLocale} />
        {meta.ogLocaleAlternates.map((l) => <meta key={l} property="og:locale:alternate" content={l} />)}
        {meta.ogImage && <meta property="og:image" content={meta.ogImage} />}
        {meta.ogImage && <meta property="og:image:width" content="1200" />}
        {meta.ogImage && <meta property="og:image:height" content="630" />}
        {meta.ogImage && <meta property="og:image:alt" content={meta.siteName} />}
        <meta name="twitter:card" content="summary_large_image" />
        <meta name="twitter:title" content={meta.title} />
        <meta name="twitter:description" content={meta.description} />
        {meta.ogImage && <meta name="twitter:image" content={meta.ogImage} />}
        <link rel="icon" href="/favicon.ico" sizes="48x48" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="apple-touch-icon" href="/apple-touch-icon.png" />
        <link rel="manifest" href="/site.webmanifest" />
        {props.fonts?.map((href) => (
          <link key={href} rel="preload" href={href} as="font" type="font/woff2" crossOrigin="anonymous" />
        ))}
        {props.inlineCss !== undefined
          ? <style dangerouslySetInnerHTML={{ __html: props.inlineCss }} />
          : props.styles.map((href) => <link key={href} rel="stylesheet" href={href} />)}
        {props.script && (
          <noscript>
            <style dangerouslySetInnerHTML={{ __html: NO_SCRIPT_CSS }} />
          </noscript>
        )}
        {props.script && <link rel="modulepreload" href={props.script} />}
        {props.preloads.map((href) => <link key={href} rel="modulepreload" href={href} />)}
        {meta.jsonLd?.map((data, i) => (
          <script
            key={i}
            type="application/ld+json"
            dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replace(/</g, "\\u003c") }}
          />
        ))}
      </head>
      <body>
        <div id="root">{props.children}</div>
        {props.pageData && (
          <script
            id="page-data"
            type="application/json"
            dangerouslySetInnerHTML={{ __html: props.pageData }}
          />
        )}
        {props.script && (
          <script
            dangerouslySetInnerHTML={{
              __html: (props.inlineScript ? props.inlineScript + ";" : "") + moduleLoader(props.script),
            }}
          />
        )}
      </body>
    </html>
  );
}
