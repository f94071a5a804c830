// A module of src/db/ run in a child `deno run`, for work whose memory should go back to the system when it
// ends (initdb, opening a backup to verify it).
import { basename } from "node:path";

/**
 * Runs `script` with `permissions` and `args`, killed after `limitMs` (its output then has signal SIGKILL).
 * Null, having run nothing, when a child cannot be run: a compiled executable is not `deno` (run with these
 * arguments it would start another server), or there is no permission to run Deno's own executable
 * (`--allow-run=<Deno.execPath()>`).
 */
export async function runDenoChild(
  script: URL,
  permissions: string[],
  args: string[],
  limitMs: number,
): Promise<Deno.CommandOutput | null> {
  const config = new URL("../../deno.json", import.meta.url);
  const deno = Deno.execPath();
  if (!/^deno(\.exe)?$/.test(basename(deno)) || script.protocol !== "file:") return null;
  if (!await Deno.stat(config).then(() => true, () => false)) return null;
  const allowed = await Deno.permissions.query({ name: "run", command: deno }).catch(() => null);
  if (allowed?.state !== "granted") return null;
  const child = new Deno.Command(deno, {
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      `--config=${config.pathname}`,
      ...permissions,
      script.pathname,
      ...args,
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), limitMs);
  try {
    return await child.output();
  } finally {
    clearTimeout(timer);
  }
}
