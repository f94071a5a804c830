// Encodes a PNG as WebP with the system Chromium's canvas (the image scripts' shared step).
import { decodeBase64, encodeBase64 } from "@oslojs/encoding";
import type { Page } from "playwright-core";

/** The PNG `png` as WebP bytes at `quality` (0–1), transparency kept; fails when Chromium cannot encode WebP. */
export async function pngToWebp(page: Page, png: Uint8Array, quality: number): Promise<Uint8Array> {
  const b64 = encodeBase64(png);
  const webp = await page.evaluate(async ([src, quality]) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    canvas.getContext("2d")!.drawImage(img, 0, 0);
    return canvas.toDataURL("image/webp", quality);
  }, [`data:image/png;base64,${b64}`, quality] as const);
  if (!webp.startsWith("data:image/webp;base64,")) throw new Error("this Chromium cannot encode WebP");
  return decodeBase64(webp.split(",")[1]);
}
