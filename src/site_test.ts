// One pricing story (issue 15): the Pipefy table, the pricing cards, the Enterprise box and the structured
// data's offers say the same prices and packages, in every language.
import assert from "node:assert/strict";
import { loadLocales } from "./server/locales.ts";
import { LANG_INFO, LANGS } from "./shared/languages.ts";
import { SITE } from "./site.ts";

Deno.test("site: the Pipefy table, the pricing cards and the structured data tell one pricing story", async () => {
  const locales = await loadLocales();
  assert.deepEqual([...SITE.structuredData.offerPrices], SITE.planTable.map((r) => r.price));
  assert.deepEqual(SITE.planTable.slice(0, 3).map((r) => r.key), SITE.plans.map((p) => p.key));
  for (const lang of LANGS) {
    const home = locales[lang].home as { pricing: Record<string, unknown> };
    const pipefy = locales[lang].pipefy as { plans: { names: Record<string, string> } };
    const cards = home.pricing.plans as Record<string, { name: string; price: string; messages: string }>;
    const count = new Intl.NumberFormat(LANG_INFO[lang].htmlLang, { useGrouping: "always" });
    const money = (n: number) => `R$ ${count.format(n)}`;
    for (const row of SITE.planTable) {
      const where = `${lang}: ${row.key}`;
      const card = cards[row.key];
      if (card) {
        assert.equal(card.price, money(row.price), `${where}: card price`);
        assert.ok(card.messages.startsWith(count.format(row.messages) + " "), `${where}: card package`);
        assert.equal(pipefy.plans.names[row.key], card.name, `${where}: same name in the table`);
      } else {
        // Enterprise: not a card, but offered (same price, same package) in the box under the cards.
        const box = home.pricing.specialistText as string;
        assert.ok(box.includes(money(row.price)), `${where}: price in the specialist box`);
        assert.ok(box.includes(count.format(row.messages)), `${where}: package in the specialist box`);
        assert.ok((home.pricing.specialistTitle as string).includes(pipefy.plans.names[row.key]), where);
      }
    }
  }
});
