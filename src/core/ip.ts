// Strict IP address parsing: what a client address, a forwarded hop or a trusted-proxy CIDR may look like.

export interface Ip {
  version: 4 | 6;
  /** 4 or 16 bytes, network order. */
  bytes: Uint8Array;
}

/** Dotted IPv4, four decimal parts 0–255 without leading zeros; a plain scan (it runs several times per request). */
function parseV4(text: string): Uint8Array | null {
  if (text.length < 7 || text.length > 15) return null;
  const bytes = new Uint8Array(4);
  let part = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 46; // a final "." closes the last part
    if (code === 46) {
      if (digits === 0 || part > 3) return null;
      bytes[part++] = value;
      value = 0;
      digits = 0;
    } else if (code >= 48 && code <= 57) {
      if (digits > 0 && value === 0) return null; // a leading zero
      value = value * 10 + (code - 48);
      if (++digits > 3 || value > 255) return null;
    } else return null;
  }
  return part === 4 ? bytes : null;
}

function parseV6(text: string): Uint8Array | null {
  if (!/^[0-9a-fA-F:.]{2,45}$/.test(text)) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (part: string): number[] | null => {
    if (part === "") return [];
    const out: number[] = [];
    const pieces = part.split(":");
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i];
      if (i === pieces.length - 1 && piece.includes(".")) {
        const v4 = parseV4(piece);
        if (!v4) return null;
        out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(piece)) out.push(parseInt(piece, 16));
      else return null;
    }
    return out;
  };
  const head = groupsOf(halves[0]);
  const tail = halves.length === 2 ? groupsOf(halves[1]) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array(missing).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 0xff;
  });
  return bytes;
}

/** Parses a dotted IPv4 or an IPv6 address (no zone, no brackets, no port); null for anything else. */
export function parseIp(text: string): Ip | null {
  const v4 = parseV4(text);
  if (v4) return { version: 4, bytes: v4 };
  const v6 = parseV6(text);
  if (!v6) return null;
  // An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is that IPv4 client.
  if (v6.subarray(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff) {
    return { version: 4, bytes: v6.slice(12) };
  }
  return { version: 6, bytes: v6 };
}

/** The canonical text of an address: dotted IPv4, or eight lower-case hex groups for IPv6. */
export function formatIp(ip: Ip): string {
  if (ip.version === 4) return ip.bytes.join(".");
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((ip.bytes[i] << 8) | ip.bytes[i + 1]).toString(16));
  return groups.join(":");
}

/**
 * What a client is counted as, for rate limits and unique visitors: an IPv4 address, or an IPv6 client's
 * /64 (one subscriber's network, whose host half they can change at will). Unparseable text is kept as is.
 */
export function clientNetwork(text: string): string {
  const ip = parseIp(text);
  if (!ip) return text;
  if (ip.version === 4) return formatIp(ip);
  const prefix = new Uint8Array(16);
  prefix.set(ip.bytes.subarray(0, 8));
  return `${formatIp({ version: 6, bytes: prefix })}/64`;
}

export interface Cidr {
  ip: Ip;
  bits: number;
}

/** Parses `address` or `address/bits`; null when malformed. */
export function parseCidr(text: string): Cidr | null {
  const [address, bits, ...rest] = text.trim().split("/");
  if (rest.length) return null;
  const ip = parseIp(address);
  if (!ip) return null;
  const max = ip.version === 4 ? 32 : 128;
  if (bits === undefined) return { ip, bits: max };
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) return null;
  return { ip, bits: Number(bits) };
}

/** True when `ip` is inside `cidr`. */
export function inCidr(ip: Ip, cidr: Cidr): boolean {
  if (ip.version !== cidr.ip.version) return false;
  let bits = cidr.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((ip.bytes[i] & mask) !== (cidr.ip.bytes[i] & mask)) return false;
  }
  return true;
}
