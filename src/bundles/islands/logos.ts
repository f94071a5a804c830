// The customer-logo fallback island: a mark that fails to load (also before this code ran) becomes a
// coloured tile with the name's initials, at the same size. Loaded when the logo grid comes into view.

export default function attach(root: HTMLElement): void {
  for (const img of root.querySelectorAll<HTMLImageElement>("img[data-initials]")) {
    const fallback = () => {
      const tile = document.createElement("span");
      tile.className = "logo-tile";
      tile.setAttribute("aria-hidden", "true");
      tile.style.background = img.dataset.tile ?? "";
      tile.textContent = img.dataset.initials ?? "";
      img.replaceWith(tile);
    };
    img.addEventListener("error", fallback, { once: true });
    if (img.complete && img.naturalWidth === 0 && img.currentSrc) fallback();
  }
}
