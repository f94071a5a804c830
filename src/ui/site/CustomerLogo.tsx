const TILE_COLORS = ["#075e54", "#1f5fa8", "#6b3fa0", "#a23b2a", "#7a5a00", "#2f4858"];

/** First letters of the first two words that start with a letter: "Moura & Lima" -> "ML". */
export function initials(name: string): string {
  const words = name.split(/\s+/).filter((w) => /^\p{L}/u.test(w));
  return words.slice(0, 2).map((w) => w[0].toUpperCase()).join("");
}

/** The tile's colour for a name: the same name always gets the same colour. */
export function tileColor(name: string): string {
  return TILE_COLORS[[...name].reduce((sum, ch) => sum + ch.charCodeAt(0), 0) % TILE_COLORS.length];
}

/**
 * A customer's mark (a square emblem; the name is printed once, as text, under it). It is decorative: the
 * name beside it already says whose it is. When the image fails, src/bundles/islands/logos.ts puts a
 * coloured tile with the name's initials (carried here as data) in its place, at the same size.
 */
export function CustomerLogo({ name, src }: { name: string; src: string }) {
  return (
    <img
      src={src}
      alt=""
      width={56}
      height={56}
      loading="lazy"
      decoding="async"
      data-initials={initials(name)}
      data-tile={tileColor(name)}
    />
  );
}
