// In the dashboard, zod would compile object parsers with `new Function` (and probe for it with one), an eval
// the page's Content-Security-Policy refuses and reports. The switch must be set before the first object
// schema is built, in any module: schemas decide at construction. So every module that builds schemas the
// dashboard loads (admin_schemas.ts, filters.ts, engagement.ts) imports this one first; the server (no
// document) keeps the compiled parsers.
import { z } from "zod";

if (typeof document !== "undefined") z.config({ jitless: true });
