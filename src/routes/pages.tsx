import { Hono } from "hono";
import { getCookie } from "hono/cookie";
import { detectLang, LANG_COOKIE, LANG_INFO } from "../shared/languages.ts";
import { resolvePath } from "../shared/routes.ts";
import type { AppEnv } from "../server/env.ts";
import { renderNotFound, renderPage } from "../server/render.tsx";

/** Query string of the request, with its `?`, or empty. */
function queryOf(url: string): string {
  const q = new URL(url).search;
  return q === "?" ? "" : q;
}

/** Every page, alias, redirect and the 404, resolved from the one route table. */
export const pages = new Hono<AppEnv>();

pages.on(["GET", "HEAD"], "*", async (c) => {
  const resolution = resolvePath(c.req.path);
  switch (resolution.kind) {
    case "root": {
      const { config } = c.get("deps");
      const lang = detectLang({
        cookie: getCookie(c, LANG_COOKIE),
        country: c.req.header(config.COUNTRY_HEADER),
        acceptLanguage: c.req.header("accept-language"),
      });
      c.header("vary", `cookie, accept-language, ${config.COUNTRY_HEADER}`);
      c.header("cache-control", "private, no-cache");
      return c.redirect(`/${LANG_INFO[lang].prefix}${queryOf(c.req.url)}`, 302);
    }
    case "redirect":
      return c.redirect(resolution.location + queryOf(c.req.url), resolution.status);
    case "page": {
      const res = await renderPage(c, resolution.page, resolution.lang);
      res.headers.set(
        "cache-control",
        resolution.page === "admin" ? "no-store" : "public, max-age=0, must-revalidate",
      );
      return res;
    }
    case "notFound":
      return renderNotFound(c, resolution.lang);
  }
});
