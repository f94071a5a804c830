// `deno task start`: builds the client when its sources changed since the last build, then serves.
import { build, needsBuild, stampVersion } from "../build.ts";

if (await needsBuild()) {
  console.log("building the client…");
  await build();
} else {
  await stampVersion();
}
const { configFromEnv, start } = await import("../src/main.ts");
await start(configFromEnv());
