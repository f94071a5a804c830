import assert from "node:assert/strict";
import { mailtoHref } from "./format.ts";

Deno.test("lead list: a mailto link only for a plain address, never with extra parameters", () => {
  assert.equal(mailtoHref("maria@example.com"), "mailto:maria@example.com");
  assert.equal(
    mailtoHref(" Maria.Souza+lead@mail.example.com.br "),
    "mailto:Maria.Souza+lead@mail.example.com.br",
  );
  for (
    const bad of [
      "victim@example.com?bcc=attacker@evil.example",
      "victim@example.com&cc=attacker@evil.example",
      "a%3Fb@example.com",
      "victim@example.com#x",
      "a@b",
      "a b@example.com",
      "javascript:alert(1)//@example.com",
      "<a@example.com>",
      "victim@corp.example,attacker@evil.example",
      "victim@corp.example;attacker@evil.example",
      '"victim@corp.example"@evil.example',
    ]
  ) {
    assert.equal(mailtoHref(bad), null, bad);
  }
});
