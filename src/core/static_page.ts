// A rendered page served as static bytes: its HTML encoded and gzip-compressed once, and the CSP hashes of
// its inline scripts, so every response is the same bytes and the policy stays strict without a per-response
// nonce (docs/PRODUCT.md, _Security and privacy_). The pages' inline scripts are the same for every request:
// the early-tap handler and the loader that imports the bootstrap (src/ui/Document.tsx); the JSON blocks
// (`application/json`, `application/ld+json`) are data, never run, so the policy does not cover them.
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";

export interface StaticPage {
  /** The HTML, UTF-8. */
  html: Uint8Array<ArrayBuffer>;
  /** The HTML as one gzip stream, compressed once. */
  gzip: Uint8Array<ArrayBuffer>;
  /** `'sha256-…'` of each inline script that runs, space-separated, for the CSP's script-src. */
  scriptHashes: string;
}

const encoder = new TextEncoder();

// A <script> start tag and its text. React writes attribute values quoted, and a script's text never holds
// "</script" (JSON in the page is escaped: page_data.ts and structured_data.ts).
const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
const DATA_BLOCK = /\btype\s*=\s*"application\/(?:ld\+)?json"/i;

/** The CSP source of each inline script in `html` that a browser would run (no `src`, not a data block). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const [, attributes, text] of html.matchAll(SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes) || DATA_BLOCK.test(attributes)) continue;
    const hash = `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
    if (!hashes.includes(hash)) hashes.push(hash);
  }
  return hashes;
}

/** Encodes and compresses a page once. */
export function staticPage(html: string): StaticPage {
  const bytes = encoder.encode(html);
  return {
    html: bytes,
    gzip: new Uint8Array(gzipSync(bytes, { level: 9, memLevel: 9 })),
    scriptHashes: inlineScriptHashes(html).join(" "),
  };
}

/** Whether an Accept-Encoding header takes gzip (q=0 refuses it; `*` stands for anything not named). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let wildcard: boolean | undefined;
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const accepted = !q || Number(q.slice(2)) > 0;
    if (name.trim() === "gzip" || name.trim() === "x-gzip") return accepted;
    if (name.trim() === "*") wildcard = accepted;
  }
  return wildcard ?? false;
}
