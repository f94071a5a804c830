// Reads what the fake SMTP server received (testing/delivery_fakes.ts fakeSmtp) as a mail client would: the
// decoded subject and the text and HTML parts, quoted-printable or base64 undone, as UTF-8.

export interface ReadMail {
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
}

function bytesToText(bytes: number[]): string {
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function quotedPrintable(body: string): string {
  const joined = body.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const c = joined[i];
    if (c === "=" && /^[0-9A-Fa-f]{2}$/.test(joined.slice(i + 1, i + 3))) {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...new TextEncoder().encode(c));
    }
  }
  return bytesToText(bytes);
}

function base64(body: string): string {
  return bytesToText([...atob(body.replace(/\s+/g, ""))].map((c) => c.charCodeAt(0)));
}

/** Undoes RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`). */
export function decodeWords(value: string): string {
  return value.replace(/=\?UTF-8\?([QB])\?([^?]*)\?=\s*(?==\?UTF-8)/gi, "=?UTF-8?$1?$2?=").replace(
    /=\?UTF-8\?([QB])\?([^?]*)\?=/gi,
    (_, kind: string, text: string) =>
      kind.toUpperCase() === "B" ? base64(text) : quotedPrintable(text.replace(/_/g, " ")),
  );
}

function headersOf(block: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of block.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i > 0) out[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return out;
}

function split(raw: string): [Record<string, string>, string] {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? "" : raw.slice(at).replace(/^\r?\n\r?\n/, "");
  return [headersOf(head), body];
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const encoding = (headers["content-transfer-encoding"] ?? "").toLowerCase();
  if (encoding === "quoted-printable") return quotedPrintable(body);
  if (encoding === "base64") return base64(body);
  return body;
}

/** The message's subject and its text and HTML parts (multipart/alternative or a single part). */
export function readMail(raw: string): ReadMail {
  const [headers, body] = split(raw);
  const out: ReadMail = { headers, subject: decodeWords(headers.subject ?? ""), text: "", html: "" };
  const walk = (h: Record<string, string>, b: string) => {
    const type = (h["content-type"] ?? "text/plain").toLowerCase();
    const boundary = /boundary="?([^";]+)"?/i.exec(h["content-type"] ?? "")?.[1];
    if (type.startsWith("multipart/") && boundary) {
      for (const part of b.split(`--${boundary}`).slice(1)) {
        if (part.startsWith("--")) break;
        const [ph, pb] = split(part.replace(/^\r?\n/, ""));
        walk(ph, pb);
      }
    } else if (type.startsWith("text/html")) out.html += decodeBody(h, b).replace(/\r\n/g, "\n");
    else if (type.startsWith("text/plain")) out.text += decodeBody(h, b).replace(/\r\n/g, "\n");
  };
  walk(headers, body);
  return out;
}
