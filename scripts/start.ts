// `deno task start`: builds the client when its sources changed since the last build, then serves.
import { build, needsBuild } from "../build.ts";

if (await needsBuild()) {
  console.log("building the client…");
  await build();
}
const { configFromEnv, start } = await import("../src/main.ts");
await start(configFromEnv());
