// FAQ answers are details/summary sharing a `name`: the browser keeps one open. Engines that predate
// exclusive details get the same from this listener (a second click closes the open one natively).

export function startFaq(): void {
  document.addEventListener("toggle", (event) => {
    const item = event.target;
    if (!(item instanceof HTMLDetailsElement) || !item.open || !item.matches(".faq-item")) return;
    for (const other of item.parentElement?.querySelectorAll<HTMLDetailsElement>(".faq-item[open]") ?? []) {
      if (other !== item) other.open = false;
    }
  }, true);
}
