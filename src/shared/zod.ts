// zod for every shared schema module: import `z` from here, never from "zod" directly. In the dashboard, zod
// would compile object parsers with `new Function` (and probe for it with one when a schema is built), an
// eval the page's Content-Security-Policy refuses and reports. So it is switched off here, before any module
// builds its first schema (an ES module's imports run before its body); the server (no document) keeps the
// compiled parsers.
import { z } from "zod";

if (typeof document !== "undefined") z.config({ jitless: true });

export { z };
