import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { hmacKey, hmacSha256Hex } from "./hmac_sha256.ts";

Deno.test("hmac-sha256: equals node:crypto for keys and messages of every length around the block edges", () => {
  const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 255);
  for (const keyLength of [0, 1, 16, 32, 63, 64, 65, 100, 200]) {
    const key = bytes(keyLength, keyLength);
    const prepared = hmacKey(key);
    for (const messageLength of [0, 1, 15, 39, 54, 55, 56, 63, 64, 65, 119, 120, 128, 300]) {
      const message = "203.0.113.7/2001:db8::1".repeat(20).slice(0, messageLength);
      const expected = createHmac("sha256", key).update(message).digest("hex");
      assert.equal(
        hmacSha256Hex(prepared, message),
        expected,
        `${keyLength}/${messageLength}`,
      );
    }
  }
});

Deno.test("hmac-sha256: the hex can stop at a prefix (the visitor key keeps 16 bytes)", () => {
  const key = new Uint8Array(32).fill(9);
  const expected = createHmac("sha256", key).update("198.51.100.23").digest("hex").slice(0, 32);
  assert.equal(hmacSha256Hex(hmacKey(key), "198.51.100.23", 16), expected);
});

Deno.test("hmac-sha256: a message in other scripts is hashed as UTF-8", () => {
  const key = hmacKey(new Uint8Array(32).fill(7));
  const message = "visitante ção 访客 🚀";
  const expected = createHmac("sha256", new Uint8Array(32).fill(7)).update(message, "utf8").digest("hex");
  assert.equal(hmacSha256Hex(key, message), expected);
});
