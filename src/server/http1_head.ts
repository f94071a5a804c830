// The first request of a connection, as the connection guard (conn_guard.ts) reads it before handing the
// connection over: only its request line and the end of its header block matter, and the short answers it
// gives when it refuses one.

/**
 * Why a request line is refused (the status line to answer), or null for HTTP/1.0 and HTTP/1.1. Only those
 * are relayed: the HTTP/2 preface (`PRI * HTTP/2.0`) would otherwise pass for headers that ended, and the
 * inner server would hold the connection as HTTP/2, whose streams share one request clock.
 */
export function refusalOf(line: string): string | null {
  if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+ [\x21-\x7e\x80-\xff]+ HTTP\/1\.[01]$/.test(line)) return null;
  if (/^[A-Za-z]+ \S+ HTTP\/\d(\.\d)?$/.test(line)) return "505 HTTP Version Not Supported";
  return "400 Bad Request";
}

/** Index just past the blank line that ends the headers (CRLF or bare LF line ends), or -1. */
export function headerEnd(bytes: Uint8Array, from: number): number {
  for (let i = Math.max(0, from); i < bytes.length; i++) {
    if (bytes[i] !== 10) continue;
    if (bytes[i + 1] === 10) return i + 2;
    if (bytes[i + 1] === 13 && bytes[i + 2] === 10) return i + 3;
  }
  return -1;
}

const latin1 = new TextDecoder("latin1");

/** The Content-Length a header block announces (0 without one). */
export function contentLength(headers: Uint8Array): number {
  const match = /\ncontent-length:[ \t]*(\d{1,15})/i.exec(latin1.decode(headers));
  return match ? Number(match[1]) : 0;
}

/** The refusal for the first line once it is in (blank lines before it are skipped), or null. */
export function refusalOfHead(bytes: Uint8Array): string | null {
  let start = 0;
  while (bytes[start] === 13 || bytes[start] === 10) start++;
  const eol = bytes.indexOf(10, start);
  if (eol < 0) return null;
  return refusalOf(latin1.decode(bytes.subarray(start, bytes[eol - 1] === 13 ? eol - 1 : eol)));
}

/** A complete answer with no body that closes the connection. */
export const plainAnswer = (status: string) =>
  new TextEncoder().encode(
    `HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\nretry-after: 1\r\n\r\n`,
  );
