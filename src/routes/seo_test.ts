import assert from "node:assert/strict";
import { appTest, TEST_ORIGIN } from "../../testing/app.ts";
import { pagePath, PUBLIC_PAGES } from "../shared/routes.ts";
import { LANG_INFO, LANGS } from "../shared/languages.ts";
import { NAMESPACES } from "../shared/i18n.ts";
import { loadLocales } from "../server/locales.ts";
import { SITE } from "../site.ts";

appTest("seo: the sitemap lists every public page in every language with its alternates", async (t) => {
  const res = await t.request("/sitemap.xml");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /^application\/xml/);
  const xml = await res.text();
  assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>'));
  const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
  assert.equal(locs.length, PUBLIC_PAGES.length * 3);
  for (const path of ["/pt-br", "/en/privacy-policy", "/es/terminos-de-servicio", "/en/clientes"]) {
    assert.ok(locs.includes(TEST_ORIGIN + path), path);
  }
  assert.ok(!xml.includes("/admin"));
  const firstUrl = xml.slice(xml.indexOf("<url>"), xml.indexOf("</url>"));
  for (const lang of ["pt-BR", "en", "es", "x-default"]) {
    assert.ok(firstUrl.includes(`hreflang="${lang}"`), lang);
  }
});

appTest("seo: robots.txt allows the site and names the sitemap", async (t) => {
  const res = await t.request("/robots.txt");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /^text\/plain/);
  const body = await res.text();
  assert.match(body, /^User-agent: \*$/m);
  assert.match(body, new RegExp(`^Sitemap: ${TEST_ORIGIN}/sitemap.xml$`, "m"));
  assert.match(body, /^Disallow: \/pt-br\/admin$/m);
});

appTest("seo: the home page carries the software's JSON-LD with four offers and the rating", async (t) => {
  const res = await t.request("/en");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /^text\/html/);
  const html = await res.text();
  const blocks = [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([^<]+)<\/script>/g)].map((m) =>
    JSON.parse(m[1])
  );
  const app = blocks.find((b) => b["@type"] === "SoftwareApplication");
  assert.ok(app, "SoftwareApplication present");
  const prices = app.offers.map((o: { price: number }) => o.price);
  assert.equal(prices.length, 4);
  assert.equal(Math.min(...prices), 147);
  assert.equal(Math.max(...prices), 827);
  for (const offer of app.offers) {
    assert.equal(offer.priceCurrency, "BRL");
    assert.ok(new Date(offer.priceValidUntil) > new Date(), "price validity lies in the future");
  }
  assert.equal(app.aggregateRating.ratingValue, 4.9);
  assert.equal(app.aggregateRating.ratingCount, 150);
  assert.ok(blocks.some((b) => b["@type"] === "Organization" && b.name === SITE.brand));
});

appTest("seo: every public page has its head tags: canonical, hreflang, Open Graph, Twitter", async (t) => {
  const res = await t.request("/es/politica-de-privacidad");
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.ok(html.includes(`<link rel="canonical" href="${TEST_ORIGIN}/es/politica-de-privacidad"/>`));
  assert.ok(html.includes(`hrefLang="x-default" href="${TEST_ORIGIN}/pt-br/politica-privacidade"`));
  assert.ok(html.includes(`<meta property="og:locale" content="es_ES"/>`));
  assert.ok(html.includes(`<meta property="og:image" content="${TEST_ORIGIN}/og-image-es.jpg"/>`));
  assert.ok(html.includes(`<meta name="twitter:card" content="summary_large_image"/>`));
  assert.ok(html.includes(`<meta name="robots" content="index, follow"/>`));
  assert.match(html, /<meta name="keywords" content="[^"]+"\/>/);
});

/**
 * Raw translation keys in a head: dotted names whose first part is a top-level key of some namespace
 * (`terms.meta.keywords`), with or without the namespace (`legal:terms.meta.keywords`). i18next prints the
 * key itself when the copy is missing, so this is what a missing meta text looks like.
 */
function rawKeys(head: string, roots: Set<string>): string[] {
  const found = head.match(/\b(?:[a-z]+:)?[a-zA-Z][\w-]*(?:\.[a-zA-Z][\w-]*)+\b/g) ?? [];
  return found.filter((token) => {
    const [first] = token.replace(/^[a-z]+:/, "").split(".");
    return roots.has(first) || /^[a-z]+:/.test(token) && NAMESPACES.includes(token.split(":")[0] as never);
  });
}

appTest(
  "seo: no page's head (every public page, 3 languages, and the 404) contains a translation key",
  async (t) => {
    const locales = await loadLocales();
    const roots = new Set(
      LANGS.flatMap((l) => NAMESPACES.flatMap((ns) => Object.keys(locales[l][ns] ?? {}))),
    );
    // The detector itself: a raw key as i18next prints it is caught, ordinary head text is not.
    assert.deepEqual(
      rawKeys('<meta content="terms.meta.keywords"/><title>legal:privacy.meta.title</title>', roots),
      [
        "terms.meta.keywords",
        "legal:privacy.meta.title",
      ],
    );
    assert.deepEqual(rawKeys('<meta content="https://schema.org og-image.png zapflow.com.br"/>', roots), []);
    const paths = [
      ...PUBLIC_PAGES.flatMap((page) => LANGS.map((lang) => pagePath(page, lang))),
      ...LANGS.map((lang) => `/${LANG_INFO[lang].prefix}/no-such-page`),
    ];
    for (const path of paths) {
      const res = await t.request(path);
      assert.equal(res.status, path.endsWith("no-such-page") ? 404 : 200, path);
      const html = await res.text();
      const head = html.slice(html.indexOf("<head>"), html.indexOf("</head>"));
      assert.ok(head.length > 100, `${path}: head found`);
      assert.deepEqual(rawKeys(head, roots), [], `${path}: translation keys in the head`);
    }
  },
);

/** The JSON-LD blocks of a page. */
function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([^<]+)<\/script>/g)].map((m) =>
    JSON.parse(m[1])
  );
}

/** Visible text of the page's body, tags dropped and React's entities decoded. */
function bodyText(html: string): string {
  return html.slice(html.indexOf("<body>")).replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"').replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">");
}

appTest(
  "seo: pages that show an FAQ carry it as FAQPage JSON-LD, the same questions and answers",
  async (t) => {
    for (const page of PUBLIC_PAGES) {
      for (const lang of LANGS) {
        const path = pagePath(page, lang);
        const html = await (await t.request(path)).text();
        const faqs = jsonLd(html).filter((b) => b["@type"] === "FAQPage");
        const shown = (html.match(/class="faq-item/g) ?? []).length;
        if (!shown) {
          assert.equal(faqs.length, 0, `${path}: no FAQ on screen, no FAQPage`);
          continue;
        }
        assert.equal(faqs.length, 1, `${path}: one FAQPage`);
        const entities = faqs[0].mainEntity as {
          "@type": string;
          name: string;
          acceptedAnswer: { text: string };
        }[];
        assert.equal(entities.length, shown, `${path}: as many questions as on screen`);
        assert.equal(faqs[0].inLanguage, LANG_INFO[lang].htmlLang);
        const text = bodyText(html);
        for (const q of entities) {
          assert.equal(q["@type"], "Question");
          assert.ok(q.name.length > 5 && text.includes(q.name), `${path}: question shown: ${q.name}`);
          assert.ok(text.includes(q.acceptedAnswer.text), `${path}: answer shown: ${q.acceptedAnswer.text}`);
        }
      }
    }
    // Both pages with an FAQ are covered.
    for (const path of ["/pt-br", "/es/pipefy-whatsapp-integracao"]) {
      assert.ok(jsonLd(await (await t.request(path)).text()).some((b) => b["@type"] === "FAQPage"), path);
    }
  },
);

/** Width and height of a JPEG, from its start-of-frame segment. */
function jpegSize(bytes: Uint8Array): [number, number] {
  assert.deepEqual([...bytes.slice(0, 2)], [0xff, 0xd8], "a JPEG");
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  let at = 2;
  while (at < bytes.length) {
    const marker = bytes[at + 1];
    if (marker >= 0xc0 && marker <= 0xc3) return [view.getUint16(at + 7), view.getUint16(at + 5)];
    at += 2 + view.getUint16(at + 2);
  }
  throw new Error("no frame header");
}

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(bytes: Uint8Array): [number, number] {
  assert.deepEqual([...bytes.slice(1, 4)], [0x50, 0x4e, 0x47], "a PNG");
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return [view.getUint32(16), view.getUint32(20)];
}

appTest(
  "seo: favicon.ico, the apple-touch-icon and the web app manifest are served and linked in the head",
  async (t) => {
    const html = await (await t.request("/es")).text();
    for (
      const tag of [
        '<link rel="icon" href="/favicon.ico" sizes="48x48"/>',
        '<link rel="icon" href="/favicon.svg" type="image/svg+xml"/>',
        '<link rel="apple-touch-icon" href="/apple-touch-icon.png"/>',
        '<link rel="manifest" href="/site.webmanifest"/>',
      ]
    ) assert.ok(html.includes(tag), tag);

    const ico = await t.request("/favicon.ico");
    assert.equal(ico.status, 200);
    assert.equal(ico.headers.get("content-type"), "image/x-icon");
    const icoBytes = new Uint8Array(await ico.arrayBuffer());
    const icoView = new DataView(icoBytes.buffer);
    assert.deepEqual([icoView.getUint16(0, true), icoView.getUint16(2, true)], [0, 1], "an ICO header");
    const count = icoView.getUint16(4, true);
    const sizes = Array.from({ length: count }, (_, i) => icoBytes[6 + 16 * i]);
    assert.ok(sizes.includes(16) && sizes.includes(32), `16 and 32 px images (${sizes})`);
    for (let i = 0; i < count; i++) {
      const offset = icoView.getUint32(6 + 16 * i + 12, true);
      assert.deepEqual(pngSize(icoBytes.slice(offset)), [sizes[i], sizes[i]]);
    }

    const touch = await t.request("/apple-touch-icon.png");
    assert.equal(touch.status, 200);
    assert.equal(touch.headers.get("content-type"), "image/png");
    assert.deepEqual(pngSize(new Uint8Array(await touch.arrayBuffer())), [180, 180]);

    const res = await t.request("/site.webmanifest");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/manifest+json; charset=utf-8");
    const manifest = await res.json();
    assert.equal(manifest.name, SITE.brand);
    assert.equal(manifest.start_url, "/");
    assert.ok(manifest.icons.some((i: { purpose?: string }) => i.purpose === "maskable"));
    for (const icon of manifest.icons as { src: string; sizes: string; type: string }[]) {
      const file = await t.request(icon.src);
      assert.equal(file.status, 200, icon.src);
      assert.equal(file.headers.get("content-type"), icon.type, icon.src);
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (icon.type === "image/png") assert.equal(pngSize(bytes).join("x"), icon.sizes, icon.src);
    }
  },
);

appTest(
  "seo: each language has its own share image (og:image, twitter:image), a 1200x630 JPEG",
  async (t) => {
    const seen = new Set<string>();
    for (const lang of LANGS) {
      const url = `${TEST_ORIGIN}/og-image-${lang}.jpg`;
      for (const page of PUBLIC_PAGES) {
        const html = await (await t.request(pagePath(page, lang))).text();
        assert.ok(html.includes(`<meta property="og:image" content="${url}"/>`), `${page} ${lang}`);
        assert.ok(html.includes(`<meta name="twitter:image" content="${url}"/>`), `${page} ${lang}`);
      }
      const res = await t.request(`/og-image-${lang}.jpg`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "image/jpeg");
      const bytes = new Uint8Array(await res.arrayBuffer());
      assert.deepEqual(jpegSize(bytes), [1200, 630]);
      assert.ok(bytes.byteLength < 200_000, `small enough to share (${bytes.byteLength} bytes)`);
      seen.add(Array.from(bytes.slice(-64)).join(","));
    }
    assert.equal(seen.size, LANGS.length, "three different images");
  },
);
