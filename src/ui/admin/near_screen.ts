import { type RefObject, useEffect, useState } from "react";

/**
 * True once the element has come within 300 px of the screen (and from then on): the panels below the fold
 * that read raw rows ask for their data only then, so they are not part of the dashboard's first load.
 */
export function useNearScreen(box: RefObject<HTMLElement | null>): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    if (near || !box.current) return;
    if (typeof IntersectionObserver === "undefined") return setNear(true);
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setNear(true);
    }, { rootMargin: "300px" });
    seen.observe(box.current);
    return () => seen.disconnect();
  }, [near]);
  return near;
}
