// Issue 21: each API resource is one sub-app at its prefix whose routes name their own middleware, so none
// runs in front of another resource's routes (the tracking sameOrigin once ran before every dashboard GET,
// the leads one before GET /api/leads, and the LGPD routes passed the admin guard twice).
import assert from "node:assert/strict";
import { testApp } from "../../../testing/app.ts";
import { endpointChains, routeEntries } from "../../../scripts/route_chains.ts";
import { PANEL_EXPORTS } from "../../shared/admin_schemas.ts";

// The app-wide layers (request log, deps, headers; GET compression and static files) run for every path.
const GLOBAL = new Set([
  "requestLogMiddleware",
  "injectDeps",
  "securityHeadersMiddleware",
  "compress",
  "staticMiddleware",
]);

const PUBLIC_WRITE = ["publicWriteMiddleware", "visitorMiddleware", "rateLimitMiddleware"];
const ADMIN = ["adminOnlyMiddleware"];

/** What each API endpoint must have in front of its handler, and nothing else. */
const EXPECTED: Record<string, string[]> = {
  // Visits and clicks count against the tracking limit in the statement that stores them.
  "POST /api/tracking/visit": ["publicWriteMiddleware", "visitorMiddleware"],
  "POST /api/tracking/click": ["publicWriteMiddleware", "visitorMiddleware"],
  // Engagement beacons count against the tracking limit like visits.
  "POST /api/tracking/engagement": ["publicWriteMiddleware", "visitorMiddleware"],
  "POST /api/tracking/conversion": PUBLIC_WRITE,
  "POST /api/leads": PUBLIC_WRITE,
  "POST /api/meta/event": PUBLIC_WRITE,
  "GET /api/config": [],
  "POST /api/admin/login": ["outcomeMiddleware", "adminGuardMiddleware", "visitorMiddleware"],
  "GET /api/admin/check-auth": ["adminGuardMiddleware", "loadSessionMiddleware"],
  "POST /api/admin/logout": ["adminGuardMiddleware", "loadSessionMiddleware"],
  "POST /api/admin/change-password": ["outcomeMiddleware", "adminOnlyMiddleware", "visitorMiddleware"],
  "GET /api/leads": ADMIN,
  "GET /api/leads/export.csv": ADMIN,
  "GET /api/leads/analytics": ADMIN,
  "GET /api/tracking/analytics": ADMIN,
  "GET /api/tracking/unique-visits": ADMIN,
  "GET /api/tracking/stats": ADMIN,
  "GET /api/tracking/summary": ADMIN,
  "GET /api/tracking/rankings/utm-source": ADMIN,
  "GET /api/tracking/rankings/utm-campaign": ADMIN,
  "GET /api/tracking/rankings/pages": ADMIN,
  "GET /api/tracking/rankings/sources": ADMIN,
  "GET /api/tracking/rankings/entry-pages": ADMIN,
  "GET /api/tracking/conversion-by-utm-source": ADMIN,
  "GET /api/tracking/channels": ADMIN,
  "GET /api/tracking/rankings/utm-content": ADMIN,
  "GET /api/tracking/rankings/utm-term": ADMIN,
  "GET /api/tracking/rankings/page-time": ADMIN,
  "GET /api/tracking/whatsapp": ADMIN,
  "GET /api/tracking/hourly": ADMIN,
  "GET /api/tracking/engagement": ADMIN,
  "GET /api/tracking/live": ADMIN,
  // Meta's webhook: no session, no same-origin check; the handler checks the verify token (GET) and the
  // X-Hub-Signature-256 of the raw body (POST) itself.
  "GET /api/whatsapp/webhook": [],
  "POST /api/whatsapp/webhook": [],
  // Issue 30: who the visitors are, and leads per state of their WhatsApp number.
  "GET /api/tracking/audience/device": ADMIN,
  "GET /api/tracking/audience/browser": ADMIN,
  "GET /api/tracking/audience/os": ADMIN,
  "GET /api/tracking/audience/country": ADMIN,
  "GET /api/tracking/audience/region": ADMIN,
  "GET /api/tracking/lead-states": ADMIN,
  "GET /api/tracking/first-contact": ADMIN,
  ...Object.fromEntries(PANEL_EXPORTS.map((panel) => [`GET /api/tracking/export/${panel}.csv`, ADMIN])),
  "GET /api/admin/lgpd/leads": ADMIN,
  "GET /api/admin/lgpd/export": ADMIN,
  "DELETE /api/admin/lgpd/leads": ADMIN,
  "GET /api/admin/deliveries": ADMIN,
  "GET /api/admin/destinations": ADMIN,
  "POST /api/admin/deliveries/resend": ADMIN,
  "GET /api/admin/system": ADMIN,
  "GET /api/admin/weekly-report": ADMIN,
  "PUT /api/admin/weekly-report": ADMIN,
};

Deno.test("routes: every API endpoint runs exactly its own resource's middleware", async () => {
  // The route table does not depend on the database; the embedded one is enough.
  const { app, db } = await testApp("pglite");
  try {
    const chains = endpointChains(routeEntries(app), GLOBAL).filter((e) => e.path.startsWith("/api/"));
    const actual = Object.fromEntries(chains.map((e) => [`${e.method} ${e.path}`, e.chain]));
    assert.deepEqual(actual, EXPECTED);
  } finally {
    await db.close();
  }
});
