// `deno task dev`: rebuilds the client and restarts the server whenever a source file changes.
import { build } from "../build.ts";

let child: Deno.ChildProcess | null = null;

async function restart() {
  try {
    await build();
  } catch (error) {
    console.error("build failed:", error);
    return;
  }
  if (child) {
    child.kill("SIGTERM");
    await child.status;
  }
  child = new Deno.Command(Deno.execPath(), { args: ["run", "-A", "src/main.ts"] }).spawn();
}

await restart();
let timer: ReturnType<typeof setTimeout> | undefined;
for await (const _event of Deno.watchFs(["src", "locales", "migrations"])) {
  clearTimeout(timer);
  timer = setTimeout(restart, 150);
}
