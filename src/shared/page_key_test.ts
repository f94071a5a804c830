import assert from "node:assert/strict";
import { pageKey, pagePathOf } from "./page_key.ts";

const CASES: [string, string][] = [
  ["/pt-br", "/pt-br"],
  ["/pt-br/", "/pt-br"],
  ["/pt-br//", "/pt-br"],
  ["/", "/"],
  ["/pt-br?fbclid=IwAR0abc", "/pt-br"],
  ["/pt-br/?gclid=Cj0KCQ&utm_source=google", "/pt-br?utm_source=google"],
  ["/pt-br?utm_source=meta&fbclid=x&utm_campaign=bf", "/pt-br?utm_source=meta&utm_campaign=bf"],
  ["/en/?gbraid=1&wbraid=2&msclkid=3&ttclid=4", "/en"],
  ["/es?FBCLID=x&ref=a", "/es?ref=a"],
  ["/es?fb%63lid=x&ref=a", "/es?ref=a"],
  ["/pt-br?fbclid", "/pt-br"],
  ["/pt-br?q=1&&", "/pt-br?q=1"],
  ["/pt-br?gclidx=1", "/pt-br?gclidx=1"],
  ["/pt-br?x=%E0%A4%A", "/pt-br?x=%E0%A4%A"],
  ["/pt-br/clientes/#logos", "/pt-br/clientes"],
];

Deno.test("page key: click ids dropped, one path form, the rest of the query kept as sent", () => {
  for (const [page, key] of CASES) {
    assert.equal(pageKey(page), key, page);
    assert.equal(pageKey(key), key, `${key} is already a key`);
  }
});

Deno.test("page key: the path alone", () => {
  assert.equal(pagePathOf("/pt-br?utm_source=google"), "/pt-br");
  assert.equal(pagePathOf("/pt-br"), "/pt-br");
});
