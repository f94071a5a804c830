import assert from "node:assert/strict";
import { BR_STATES, brStateCode, DDD_STATES, leadState } from "./br_states.ts";

Deno.test("the DDD table: all 67 codes, each to one of the 27 states, every state reached", () => {
  const ddds = Object.keys(DDD_STATES);
  assert.equal(ddds.length, 67);
  assert.ok(ddds.every((d) => /^[1-9][1-9]$/.test(d)));
  assert.ok(Object.values(DDD_STATES).every((uf) => uf in BR_STATES));
  assert.equal(new Set(Object.values(DDD_STATES)).size, 27);
  assert.equal(Object.keys(BR_STATES).length, 27);
  // Spot checks from Anatel's plan.
  const expected: Record<string, string> = {
    "11": "SP",
    "19": "SP",
    "21": "RJ",
    "24": "RJ",
    "27": "ES",
    "31": "MG",
    "38": "MG",
    "41": "PR",
    "47": "SC",
    "51": "RS",
    "55": "RS",
    "61": "DF",
    "62": "GO",
    "63": "TO",
    "65": "MT",
    "67": "MS",
    "68": "AC",
    "69": "RO",
    "71": "BA",
    "79": "SE",
    "81": "PE",
    "82": "AL",
    "83": "PB",
    "84": "RN",
    "85": "CE",
    "86": "PI",
    "91": "PA",
    "92": "AM",
    "95": "RR",
    "96": "AP",
    "98": "MA",
    "99": "MA",
  };
  for (const [ddd, uf] of Object.entries(expected)) assert.equal(DDD_STATES[ddd], uf, ddd);
  for (
    const unused of [
      "20",
      "23",
      "25",
      "26",
      "29",
      "30",
      "36",
      "39",
      "40",
      "50",
      "52",
      "56",
      "60",
      "70",
      "72",
      "76",
      "78",
      "80",
      "90",
    ]
  ) {
    assert.equal(DDD_STATES[unused], undefined, unused);
  }
});

Deno.test("a lead's state from its WhatsApp number, read like its wa.me link", () => {
  assert.equal(leadState("(11) 98765-4321", "/pt-br"), "SP");
  assert.equal(leadState("21 99876 5432", "/pt-br/integracao-pipefy"), "RJ");
  assert.equal(leadState("+55 71 99123-4567", "/en"), "BA"); // + numbers as typed, whatever the language
  assert.equal(leadState("+5561991234567", null), "DF");
  assert.equal(leadState("(11) 98765-4321", "/en"), null); // read as a US number: not Brazilian
  assert.equal(leadState("+351 912 345 678", "/pt-br"), null); // Portugal
  assert.equal(leadState("12345", "/pt-br"), null);
  assert.equal(leadState("", "/pt-br"), null);
  assert.equal(leadState(null, "/pt-br"), null);
});

Deno.test("a state from an IP database's subdivision: ISO codes and names, with or without accents", () => {
  assert.equal(brStateCode("SP"), "SP");
  assert.equal(brStateCode("BR-RJ"), "RJ");
  assert.equal(brStateCode("São Paulo"), "SP");
  assert.equal(brStateCode("Sao Paulo"), "SP");
  assert.equal(brStateCode("Federal District"), "DF");
  assert.equal(brStateCode("Texas"), null);
  assert.equal(brStateCode(undefined), null);
});

Deno.test("the quick reading of the usual forms agrees with libphonenumber's", async () => {
  const { whatsappDigits, langOfPage } = await import("./whatsapp_link.ts");
  const full = (typed: string, page: string) => {
    const d = whatsappDigits(typed, langOfPage(page));
    return d && d.startsWith("55") && d.length >= 12 ? DDD_STATES[d.slice(2, 4)] ?? null : null;
  };
  const samples: [string, string][] = [];
  for (const ddd of Object.keys(DDD_STATES)) {
    samples.push([`(${ddd}) 98765-4321`, "/pt-br"], [`+55 ${ddd} 91234-5678`, "/en"], [
      `${ddd} 3333-4444`,
      "/pt-br",
    ]);
  }
  samples.push(["(20) 98765-4321", "/pt-br"], ["+55 11 8765-4321", "/pt-br"], ["(11) 98765-4321", "/es"]);
  for (const [typed, page] of samples) {
    assert.equal(leadState(typed, page), full(typed, page), `${typed} on ${page}`);
  }
  const started = performance.now();
  for (let i = 0; i < 20_000; i++) leadState(`+55 (11) 9${String(1000 + (i % 9000))}-4321`, "/pt-br");
  const ms = performance.now() - started;
  if (Deno.args.includes("--print")) console.log(`20,000 leads' states in ${ms.toFixed(0)} ms`);
});
