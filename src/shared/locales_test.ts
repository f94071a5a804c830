import assert from "node:assert/strict";
import { loadLocales } from "../server/locales.ts";
import { LANGS } from "./languages.ts";
import { NAMESPACES } from "./i18n.ts";

function keys(value: unknown, prefix = ""): string[] {
  if (value === null || typeof value !== "object") return [prefix];
  if (Array.isArray(value)) {
    return [
      `${prefix}[${value.length}]`,
      ...value.flatMap((v, i) => keys(v, `${prefix}[${i}]`)),
    ];
  }
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

Deno.test("locales: every key exists in pt, en and es", async () => {
  const locales = await loadLocales();
  for (const ns of NAMESPACES) {
    const reference = new Set(LANGS.flatMap((l) => keys(locales[l][ns])));
    for (const lang of LANGS) {
      const own = new Set(keys(locales[lang][ns]));
      const missing = [...reference].filter((k) => !own.has(k));
      assert.deepEqual(missing, [], `${lang}/${ns}.json is missing keys`);
    }
  }
});

Deno.test("locales: no value is empty", async () => {
  const locales = await loadLocales();
  for (const lang of LANGS) {
    for (const ns of NAMESPACES) {
      const walk = (v: unknown, path: string): void => {
        if (typeof v === "string") assert.ok(v.trim().length > 0, `${lang}/${ns}: ${path} is empty`);
        else if (v && typeof v === "object") {
          for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
        }
      };
      walk(locales[lang][ns], ns);
    }
  }
});
