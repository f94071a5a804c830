// Who sent a page view or plan click, as the small categories stored with it (docs/AUDIENCE.md): the device
// class, browser and operating system from the user agent and client hints (services/user_agent.ts), the
// country and Brazilian state from the client address (services/geoip.ts). The user agent and the address are
// read here and never stored.
import type { Audience } from "../db/tracking.ts";
import { geoDbFor, placeOf } from "./geoip.ts";
import { userAgentInfo } from "./user_agent.ts";

export interface AudienceRequest {
  /** A request header by its name, as Hono's `c.req.header`. */
  header(name: string): string | undefined;
}

export interface AudienceSettings {
  GEOIP_DB?: string;
  COUNTRY_HEADER: string;
}

/** The categories of a (non-bot) request from `ip`. */
export function audienceOf(req: AudienceRequest, ip: string, config: AudienceSettings): Audience {
  const ua = userAgentInfo(req.header("user-agent"), {
    ua: req.header("sec-ch-ua"),
    mobile: req.header("sec-ch-ua-mobile"),
    platform: req.header("sec-ch-ua-platform"),
  });
  const place = placeOf(geoDbFor(config.GEOIP_DB), ip, req.header(config.COUNTRY_HEADER));
  return { ...ua, ...place };
}
