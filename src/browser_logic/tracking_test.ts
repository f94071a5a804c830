import assert from "node:assert/strict";
import {
  captureTouch,
  captureUtm,
  currentOrigin,
  externalReferrer,
  sessionId,
  storedTouch,
  storedUtm,
  withUtm,
} from "./tracking.ts";
import { conversionSource, validateLead } from "../ui/lead/lead_form.ts";

Deno.test("tracking: UTM parameters are captured from the landing URL and appended to checkout links", () => {
  sessionStorage.clear();
  captureUtm("?utm_source=google&utm_campaign=bf&utm_medium=cpc&utm_term=crm&x=1");
  assert.deepEqual(storedUtm(), {
    utm_source: "google",
    utm_campaign: "bf",
    utm_medium: "cpc",
    utm_term: "crm",
  });
  captureUtm("?page=2"); // no utm_*: the stored campaign stays
  assert.equal(storedUtm().utm_source, "google");
  assert.equal(
    withUtm("https://app.zapflow.com.br/checkout/pro?ref=site"),
    "https://app.zapflow.com.br/checkout/pro?ref=site&utm_source=google&utm_campaign=bf&utm_medium=cpc&utm_term=crm",
  );
});

Deno.test("tracking: the checkout gets utm_content, utm_term and the landing URL's ad click ids too", () => {
  sessionStorage.clear();
  const landing = "?utm_source=facebook&utm_medium=paid&utm_campaign=bf&utm_content=video1&utm_term=crm" +
    "&fbclid=IwAR0abc&gclid=Cj0KCQ&other=x";
  captureUtm(landing);
  captureTouch(landing, "/pt-br", "", "localhost");
  const url = new URL(withUtm("https://app.zapflow.com.br/checkout/pro"));
  assert.deepEqual(Object.fromEntries(url.searchParams), {
    utm_source: "facebook",
    utm_campaign: "bf",
    utm_medium: "paid",
    utm_content: "video1",
    utm_term: "crm",
    gclid: "Cj0KCQ",
    fbclid: "IwAR0abc",
  });
  // Without any origin, the link stays as it is.
  sessionStorage.clear();
  assert.equal(withUtm("https://app.zapflow.com.br/checkout/pro"), "https://app.zapflow.com.br/checkout/pro");
});

Deno.test("tracking: an invalid link is returned unchanged and unreadable UTM storage counts as empty", () => {
  sessionStorage.clear();
  captureUtm("?utm_source=ig");
  assert.equal(withUtm("not a url"), "not a url");
  sessionStorage.setItem("zapflow.utm", "{broken");
  assert.deepEqual(storedUtm(), {});
  assert.equal(withUtm("https://x.example/a"), "https://x.example/a");
  sessionStorage.setItem("zapflow.utm", '["a"]');
  assert.deepEqual(storedUtm(), {});
});

Deno.test("tracking: the session id is time plus random and stays the same within the session", () => {
  sessionStorage.clear();
  const id = sessionId();
  assert.match(id, /^\d{13}-[a-z0-9]{10}$/);
  assert.equal(sessionId(), id);
});

Deno.test("lead form: validation keys of the lead modal (docs/PRODUCT.md)", () => {
  assert.deepEqual(validateLead({ name: " ", email: "", whatsapp: "" }), {
    name: "leadModal.validation.nameRequired",
    email: "leadModal.validation.emailRequired",
    whatsapp: "leadModal.validation.whatsappRequired",
  });
  assert.deepEqual(validateLead({ name: "A", email: "a@b", whatsapp: "1" }), {
    email: "leadModal.validation.emailInvalid",
  });
  assert.deepEqual(validateLead({ name: "A", email: "a b@c.d", whatsapp: "1" }), {
    email: "leadModal.validation.emailInvalid",
  });
  assert.deepEqual(validateLead({ name: "A", email: "a@b.c", whatsapp: "x" }), {});
});

Deno.test("lead form: conversion sources use the lower-cased plan name or the specialist source", () => {
  assert.equal(conversionSource({ kind: "plan", planName: "Premium" }), "pricing_premium_plan");
  assert.equal(conversionSource({ kind: "specialist" }), "pricing_specialist_enterprise");
});

Deno.test("tracking: the referrer is kept as a host, only when it is another site (Android apps too)", () => {
  assert.equal(
    externalReferrer("https://www.google.com.br/search?q=crm+whatsapp", "zapflow.com.br"),
    "www.google.com.br",
  );
  assert.equal(
    externalReferrer("android-app://com.google.android.gm/", "zapflow.com.br"),
    "com.google.android.gm",
  );
  assert.equal(externalReferrer("https://www.zapflow.com.br/pt-br", "zapflow.com.br"), null);
  assert.equal(externalReferrer("https://zapflow.com.br/en", "www.zapflow.com.br"), null);
  assert.equal(externalReferrer("", "zapflow.com.br"), null);
  assert.equal(externalReferrer("file:///etc/passwd", "zapflow.com.br"), null);
  assert.equal(externalReferrer("http://[::1]:8000/", "zapflow.com.br"), null);
});

Deno.test("tracking: the touch is taken on the first page and on a new arrival, with click ids as flags", () => {
  sessionStorage.clear();
  captureTouch("?gclid=abc123&fbclid=", "/pt-br", "https://www.google.com/", "zapflow.com.br");
  assert.deepEqual(storedTouch(), {
    referrer: "www.google.com",
    clickIds: { gclid: true },
    landingPage: "/pt-br?gclid=abc123&fbclid=",
  });
  assert.deepEqual(currentOrigin().clickIds, { gclid: true });
  assert.equal(currentOrigin().referrer, "www.google.com");
  // Browsing on within the site keeps the session's touch.
  captureTouch("", "/pt-br/clientes", "https://zapflow.com.br/pt-br", "zapflow.com.br");
  assert.equal(storedTouch()?.landingPage, "/pt-br?gclid=abc123&fbclid=");
  // Coming back from another site starts a new touch.
  captureTouch("", "/en", "https://l.instagram.com/", "zapflow.com.br");
  assert.deepEqual(storedTouch(), { referrer: "l.instagram.com", clickIds: {}, landingPage: "/en" });
  assert.deepEqual(currentOrigin().clickIds, {});
  sessionStorage.clear();
  assert.equal(currentOrigin().referrer, undefined); // not sent
  sessionStorage.setItem("zapflow.touch", "{broken");
  assert.equal(storedTouch(), null);
});
