// The server `deno task bench` measures: src/main.ts's `start`, from the environment like production, plus
// the ceiling routes (bench/ceilings.ts) the bench compares every route with.
import { configFromEnv, start } from "../src/main.ts";
import { addCeilings } from "./ceilings.ts";

await start(configFromEnv(), { extend: addCeilings });
