import { Hono } from "hono";
import type { AppEnv } from "../server/env.ts";
import { LANG_INFO } from "../shared/languages.ts";
import { alternates, pagePath, PUBLIC_PAGES } from "../shared/routes.ts";

const xmlEscape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The sitemap XML: every public page in every language, each with its hreflang alternates. */
export function sitemapXml(origin: string): string {
  const urls: string[] = [];
  for (const page of PUBLIC_PAGES) {
    const alts = alternates(page);
    const links = [
      ...alts.map((a) =>
        `    <xhtml:link rel="alternate" hreflang="${LANG_INFO[a.lang].htmlLang}" href="${
          xmlEscape(origin + a.path)
        }"/>`
      ),
      `    <xhtml:link rel="alternate" hreflang="x-default" href="${
        xmlEscape(origin + pagePath(page, "pt"))
      }"/>`,
    ].join("\n");
    for (const alt of alts) {
      urls.push(
        `  <url>\n    <loc>${xmlEscape(origin + alt.path)}</loc>\n${links}\n    <changefreq>${
          page === "terms" || page === "privacy" ? "yearly" : "weekly"
        }</changefreq>\n    <priority>${page === "home" ? "1.0" : "0.8"}</priority>\n  </url>`,
      );
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" ` +
    `xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join("\n")}\n</urlset>\n`;
}

/** `/sitemap.xml` and `/robots.txt`, with absolute URLs from PUBLIC_ORIGIN. */
export const seo = new Hono<AppEnv>();

seo.get("/sitemap.xml", (c) => {
  const origin = c.get("deps").config.PUBLIC_ORIGIN;
  return c.body(sitemapXml(origin), 200, {
    "content-type": "application/xml; charset=utf-8",
    "cache-control": "public, max-age=3600",
  });
});

seo.get("/robots.txt", (c) => {
  const origin = c.get("deps").config.PUBLIC_ORIGIN;
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /api/",
    ...Object.values(LANG_INFO).map((l) => `Disallow: /${l.prefix}/admin`),
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
  return c.text(body, 200, { "cache-control": "public, max-age=3600" });
});
