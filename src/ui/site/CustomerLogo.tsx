import { useEffect, useRef, useState } from "react";

const TILE_COLORS = ["#075e54", "#1f5fa8", "#6b3fa0", "#a23b2a", "#7a5a00", "#2f4858"];

/** First letters of the first two words that start with a letter: "Moura & Lima" -> "ML". */
export function initials(name: string): string {
  const words = name.split(/\s+/).filter((w) => /^\p{L}/u.test(w));
  return words.slice(0, 2).map((w) => w[0].toUpperCase()).join("");
}

/**
 * A customer's mark (a square emblem; the name is printed once, as text, under it). It is decorative: the
 * name beside it already says whose it is. When the image fails (also before hydration, which React's
 * onError would miss), a coloured tile with the name's initials takes its place at the same size.
 */
export function CustomerLogo({ name, src }: { name: string; src: string }) {
  const [failed, setFailed] = useState(false);
  const img = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const el = img.current;
    if (el && el.complete && el.naturalWidth === 0) setFailed(true);
  }, []);
  if (failed) {
    const color = TILE_COLORS[[...name].reduce((sum, ch) => sum + ch.charCodeAt(0), 0) % TILE_COLORS.length];
    return (
      <span className="logo-tile" aria-hidden="true" style={{ background: color }}>
        {initials(name)}
      </span>
    );
  }
  return (
    <img
      ref={img}
      src={src}
      alt=""
      width={56}
      height={56}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}
