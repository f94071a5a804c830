// Work that should not run in the task that asked for it: when the page is idle, or once the next frame has
// been drawn. Shared by the bootstrap's parts (start.ts, islands.ts, lead.ts).

/** Runs `work` when the page is idle, at the latest after `timeoutMs`; `fallbackMs` where there is no idle callback. */
export function whenIdle(work: () => void, timeoutMs = 2000, fallbackMs = 200): void {
  if ("requestIdleCallback" in globalThis) requestIdleCallback(work, { timeout: timeoutMs });
  else setTimeout(work, fallbackMs);
}

/** Runs `work` in a task after the next frame: what was changed before it has been painted. */
export function afterNextFrame(work: () => void): void {
  requestAnimationFrame(() => setTimeout(work));
}
