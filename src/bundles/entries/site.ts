import { startSite } from "../site.ts";

startSite();
