import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Assets } from "./assets.ts";
import type { Locales } from "./locales.ts";
import type { Session } from "../services/sessions.ts";
import type { VisitorKeys } from "../services/visitor_key.ts";

/** Who sent a public write (server/middleware/visitor.ts). */
export interface Visitor {
  /** Pseudonymous key for the month (services/visitor_key.ts): a keyed hash of the address, never the address. */
  key: string;
  /** A crawler or automated browser: answered like a person, counted and stored nowhere. */
  bot: boolean;
  /** The client's address (for Meta's matching only, never stored beyond delivery). */
  ip: string;
}

/** Everything the app needs from outside, created once in main.ts (or by a test). */
export interface AppDeps {
  config: Config;
  db: Db;
  assets: Assets;
  locales: Locales;
  /** The release tag or commit of this build (server/assets.ts readBuildVersion); default "dev". */
  version?: string;
  /** Current time; tests may fix it. */
  now?: () => Date;
  /** The visitor keys over `db`'s salts (main.ts makes them; createApp makes them for an app given none). */
  visitorKeys?: VisitorKeys;
}

/** What the handlers see: the deps with everything createApp fills in. */
export type AppRuntime = AppDeps & { visitorKeys: VisitorKeys };

/** Request state, typed once. */
export type AppEnv = {
  Variables: {
    deps: AppRuntime;
    /** The request's clock, read once when it arrives (deps.now, or the system clock). */
    now: Date;
    requestId: string;
    /** A page's answer: the CSP hashes of its inline scripts (render.tsx), which the policy allows. */
    scriptHashes?: string;
    /** The administrator's session, once `loadSession`/`adminOnly` has run and found one. */
    session?: Session;
    /** The caller of a public write, once `visitor()` has run. */
    visitor: Visitor;
    /** A public write's JSON body, read by `publicWrite()` and not yet checked against a schema. */
    body: unknown;
  };
};
