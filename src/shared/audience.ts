// Who the visitors are (docs/AUDIENCE.md): the categories derived from a visit's user agent and address, and
// the dashboard's names for them. Nothing here is personal data: no user agent, no address.
import { BR_STATES } from "./br_state_names.ts";

export type DeviceClass = "mobile" | "tablet" | "desktop";

/** The dashboard's name of a device class. */
export const DEVICE_LABELS: Record<DeviceClass, string> = {
  mobile: "Celular",
  tablet: "Tablet",
  desktop: "Computador",
};

/** The audience panels, by the dimension they group page views, plan clicks and leads by. */
export const AUDIENCE_DIMENSIONS = ["device", "browser", "os", "country", "region"] as const;
export type AudienceDimension = typeof AUDIENCE_DIMENSIONS[number];

/** The stored column of each dimension (visits, clicks and leads carry the same ones, migrations/00020). */
export const AUDIENCE_COLUMNS: Record<AudienceDimension, string> = {
  device: "device",
  browser: "browser",
  os: "os",
  country: "country",
  region: "region",
};

/** Each panel's title. */
export const AUDIENCE_TITLES: Record<AudienceDimension, string> = {
  device: "Dispositivos",
  browser: "Navegadores",
  os: "Sistemas",
  country: "Países",
  region: "Estados",
};

/** Each panel's first column. */
export const AUDIENCE_KEY_LABELS: Record<AudienceDimension, string> = {
  device: "Dispositivo",
  browser: "Navegador",
  os: "Sistema",
  country: "País",
  region: "Estado",
};

/** The row of events whose value is not known (stored before migration 00020, or not found). */
export const UNKNOWN_LABEL = "Não identificado";

const countryNames = (() => {
  try {
    return new Intl.DisplayNames(["pt-BR"], { type: "region" });
  } catch {
    return null;
  }
})();

/** A stored value as the dashboard shows it: device classes and countries by their Portuguese names. */
export function audienceValueLabel(dimension: AudienceDimension, key: string): string {
  if (key === "") return UNKNOWN_LABEL;
  if (dimension === "device") return DEVICE_LABELS[key as DeviceClass] ?? key;
  if (dimension === "region") return BR_STATES[key] ? `${BR_STATES[key]} (${key})` : key;
  if (dimension === "country") {
    try {
      return countryNames?.of(key) ?? key;
    } catch {
      return key;
    }
  }
  return key;
}
