import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Assets } from "./assets.ts";
import type { Locales } from "./locales.ts";
import type { Session } from "../services/sessions.ts";

/** Everything the app needs from outside, created once in main.ts (or by a test). */
export interface AppDeps {
  config: Config;
  db: Db;
  assets: Assets;
  locales: Locales;
  /** Current time; tests may fix it. */
  now?: () => Date;
}

/** Request state, typed once. */
export type AppEnv = {
  Variables: {
    deps: AppDeps;
    requestId: string;
    nonce: string;
    /** The administrator's session, once `loadSession`/`requireAdmin` has run and found one. */
    session?: Session;
  };
};
