import assert from "node:assert/strict";
import { conversionRate, METRICS, sourceLabel, touchLabel, WORDS } from "./metrics.ts";
import { CHANNEL_LABELS } from "./channels.ts";

Deno.test("glossary: one name per figure, each explained in a full sentence", () => {
  const names = Object.values(METRICS).map((m) => m.name);
  assert.equal(new Set(names).size, names.length);
  for (const [id, m] of Object.entries(METRICS)) {
    assert.match(m.tip, /^[A-ZÁÉÍÓÚ].*\.$/, `${id}: ${m.tip}`);
    assert.doesNotMatch(m.tip, /\bEmail\b|\bUTM Source\b/, id);
  }
  assert.equal(new Set(Object.values(CHANNEL_LABELS)).size, Object.keys(CHANNEL_LABELS).length);
});

Deno.test("glossary: the conversion rate is conversions ÷ plan clicks, one decimal, 0 without clicks", () => {
  assert.equal(conversionRate(1, 3), 33.3);
  assert.equal(conversionRate(2, 3), 66.7);
  assert.equal(conversionRate(5, 0), 0);
});

Deno.test("glossary: a direct session reads Direto, never 'direto / (none)'", () => {
  assert.equal(sourceLabel("direto"), WORDS.direct);
  assert.equal(sourceLabel("google"), "google");
  assert.equal(touchLabel("direto", "(none)"), "Direto");
  assert.equal(touchLabel("google", "organic"), "google / organic");
  assert.equal(touchLabel("chatgpt.com", "(not set)"), "chatgpt.com");
});
