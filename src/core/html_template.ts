// Rendered HTML kept with a placeholder where each response's CSP nonce goes (docs/PRODUCT.md, _Security and
// privacy_), and served gzip without compressing per response: the text between placeholders is deflated
// once, each segment ending on a full flush (byte-aligned, no back-references across it), so a response is
// the gzip header, the segments with the nonce between them as stored (uncompressed) deflate blocks, a final
// empty block and the CRC-32/length trailer (the CRC from per-template tables, see nonceCrc). The bytes are a
// valid gzip stream of exactly the HTML with that nonce.
import { constants, crc32, deflateRawSync } from "node:zlib";

/** Stand-in for the nonce while rendering; random per process so no page text can contain it. */
export const NONCE_SLOT = `nonceslot${crypto.randomUUID().replaceAll("-", "")}`;

export interface HtmlTemplate {
  /** UTF-8 text between nonce slots (one more than the slots). */
  segments: Uint8Array[];
  /** Each segment as raw deflate ending on a full flush. */
  deflated: Uint8Array[];
  /** Bytes of all segments together. */
  staticLength: number;
  /** Bytes of all deflated segments together. */
  deflatedLength: number;
  /** CRC-32 tables per nonce length in bytes (see nonceCrc). */
  crcs: Map<number, NonceCrc>;
}

/**
 * CRC-32 is affine over GF(2): for messages of one length, crc(a ^ b ^ c) = crc(a) ^ crc(b) ^ crc(c). So the
 * CRC of the page with any nonce of this length is the CRC with an all-zero nonce, XOR one table entry per
 * nonce byte (per position and value, built from the 8 one-bit nonces of each position): a response costs a
 * few dozen lookups instead of a pass over the whole page.
 */
interface NonceCrc {
  base: number;
  /** `table[position * 256 + byte]`. */
  table: Uint32Array;
}

function crcWithNonce(t: HtmlTemplate, nonce: Uint8Array): number {
  let crc = 0;
  t.segments.forEach((segment, i) => {
    if (i > 0) crc = crc32(nonce, crc);
    crc = crc32(segment, crc);
  });
  return crc >>> 0;
}

function nonceCrc(t: HtmlTemplate, length: number): NonceCrc {
  let entry = t.crcs.get(length);
  if (!entry) {
    const probe = new Uint8Array(length);
    const base = crcWithNonce(t, probe);
    const bits = new Uint32Array(length * 8);
    for (let position = 0; position < length; position++) {
      for (let bit = 0; bit < 8; bit++) {
        probe[position] = 1 << bit;
        bits[position * 8 + bit] = (crcWithNonce(t, probe) ^ base) >>> 0;
      }
      probe[position] = 0;
    }
    const table = new Uint32Array(length * 256);
    for (let position = 0; position < length; position++) {
      for (let byte = 1; byte < 256; byte++) {
        let x = 0;
        for (let bit = 0; bit < 8; bit++) if (byte & (1 << bit)) x ^= bits[position * 8 + bit];
        table[position * 256 + byte] = x;
      }
    }
    entry = { base, table };
    if (t.crcs.size >= 4) t.crcs.clear(); // nonces all have one length; anything else is a test
    t.crcs.set(length, entry);
  }
  return entry;
}

const encoder = new TextEncoder();

/** Splits rendered HTML at the nonce slots and deflates each piece once. */
export function compileTemplate(html: string): HtmlTemplate {
  const segments = html.split(NONCE_SLOT).map((s) => encoder.encode(s));
  const deflated = segments.map((s) =>
    new Uint8Array(deflateRawSync(s, { level: 9, memLevel: 9, finishFlush: constants.Z_FULL_FLUSH }))
  );
  return {
    segments,
    deflated,
    staticLength: segments.reduce((n, s) => n + s.byteLength, 0),
    deflatedLength: deflated.reduce((n, s) => n + s.byteLength, 0),
    crcs: new Map(),
  };
}

/** The HTML with `nonce` in every slot, uncompressed. */
export function fillTemplate(t: HtmlTemplate, nonce: string): Uint8Array<ArrayBuffer> {
  const value = encoder.encode(nonce);
  const out = new Uint8Array(t.staticLength + value.byteLength * (t.segments.length - 1));
  let at = 0;
  t.segments.forEach((segment, i) => {
    if (i > 0) {
      out.set(value, at);
      at += value.byteLength;
    }
    out.set(segment, at);
    at += segment.byteLength;
  });
  return out;
}

// gzip member header: magic, deflate, no flags, no mtime, no extra flags, OS unknown.
const GZIP_HEADER = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];
// An empty stored block with BFINAL set ends the deflate stream.
const FINAL_BLOCK = [1, 0, 0, 0xff, 0xff];

/** The HTML with `nonce` in every slot as one gzip stream, assembled from the pre-deflated segments. */
export function gzipTemplate(t: HtmlTemplate, nonce: string): Uint8Array<ArrayBuffer> {
  const value = encoder.encode(nonce);
  if (value.byteLength > 0xffff) throw new RangeError("nonce too long for one stored block");
  const slots = t.segments.length - 1;
  const stored = value.byteLength ? 5 + value.byteLength : 0;
  const out = new Uint8Array(GZIP_HEADER.length + t.deflatedLength + slots * stored + FINAL_BLOCK.length + 8);
  out.set(GZIP_HEADER, 0);
  let at = GZIP_HEADER.length;
  const { base, table } = nonceCrc(t, value.byteLength);
  let crc = base;
  for (let position = 0; position < value.byteLength; position++) {
    crc ^= table[position * 256 + value[position]];
  }
  for (let i = 0; i <= slots; i++) {
    if (i > 0 && stored) {
      // Stored block: BFINAL 0, BTYPE 00 (the stream is byte-aligned after a full flush), LEN, NLEN.
      const len = value.byteLength;
      out[at] = 0;
      out[at + 1] = len & 0xff;
      out[at + 2] = len >> 8;
      out[at + 3] = ~len & 0xff;
      out[at + 4] = (~len >> 8) & 0xff;
      out.set(value, at + 5);
      at += stored;
    }
    out.set(t.deflated[i], at);
    at += t.deflated[i].byteLength;
  }
  out.set(FINAL_BLOCK, at);
  at += FINAL_BLOCK.length;
  const size = t.staticLength + slots * value.byteLength;
  const view = new DataView(out.buffer);
  view.setUint32(at, crc >>> 0, true);
  view.setUint32(at + 4, size >>> 0, true);
  return out;
}

/** True when an Accept-Encoding header accepts gzip (explicitly, or by `*`, with a non-zero q). */
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
