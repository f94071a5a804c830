import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Assets } from "./assets.ts";
import type { Locales } from "./locales.ts";
import type { Session } from "../services/sessions.ts";
import type { VisitorKeys } from "../services/visitor_key.ts";

/** Everything the app needs from outside, created once in main.ts (or by a test). */
export interface AppDeps {
  config: Config;
  db: Db;
  assets: Assets;
  locales: Locales;
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
    requestId: string;
    nonce: string;
    /** The administrator's session, once `loadSession`/`requireAdmin` has run and found one. */
    session?: Session;
  };
};
