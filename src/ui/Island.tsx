import type { ReactNode } from "react";

/** When the browser loads an island's code: see the table in src/bundles/islands.ts. */
export type IslandTrigger = "visible" | "interaction" | "idle";

/**
 * The marker around an island's server output: its name, its props (JSON: what it needs, translated
 * strings included, never the whole locale bundle) and when to load it. The bootstrap's island loader
 * (src/bundles/islands.ts) finds markers and hydrates each one on its own root when its trigger fires.
 * `display: contents` (styles): the marker itself takes no box, so the page lays out as without it.
 */
export function Island(
  { name, props, when, triggers, children }: {
    name: string;
    props?: unknown;
    when: IslandTrigger;
    /** For "interaction": elements outside the marker (a CSS selector) whose interaction also counts. */
    triggers?: string;
    children?: ReactNode;
  },
) {
  return (
    <div
      className="island"
      data-island={name}
      data-when={when}
      data-triggers={triggers}
      data-props={props === undefined ? undefined : JSON.stringify(props)}
    >
      {children}
    </div>
  );
}
