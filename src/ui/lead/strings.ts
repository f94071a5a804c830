// The lead modal's texts travel in its island's props (a few hundred bytes), not as an i18next bundle.

/** Flat translations: `leadModal.fields.name.label` -> text. */
export type Strings = Record<string, string>;

/** Flattens a nested translation object into dotted keys under `prefix`. */
export function flatten(value: unknown, prefix: string, into: Strings = {}): Strings {
  if (typeof value === "string") into[prefix] = value;
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) flatten(v, `${prefix}.${k}`, into);
  }
  return into;
}

/** A `t` over flat strings with i18next's `{{name}}` interpolation; an unknown key shows as itself. */
export function translator(strings: Strings) {
  return (key: string, vars: Record<string, string> = {}): string =>
    (strings[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => vars[name] ?? "");
}
