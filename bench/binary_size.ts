// The single binary's size (README, "The single binary"): runs `deno task compile`'s own `deno compile`
// command (read from deno.json, so the two cannot drift) into a temporary folder and prints the executable's
// size and its parts: the runtime, the embedded files, and within them the IP database's package and the
// other npm packages.
//   deno task build && deno run -A bench/binary_size.ts
// `deno compile` downloads the runtime (`denort`) for the target; where it cannot (no internet), set
// DENORT_BIN to a runtime, or the script uses this `deno` executable in its place and says so: the full CLI is
// larger than `denort`, so the total is then an upper bound, while the embedded part is exact either way.

const root = new URL("../", import.meta.url);
const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
const task: string = config.tasks.compile;
const args = task.slice(task.indexOf("deno compile")).split(/\s+/).slice(2);
const mmdb = args.find((a, i) => args[i - 1] === "--include" && a.endsWith(".mmdb"));

// NO_COLOR: deno compile's summary without escape codes, to read its sizes.
const env: Record<string, string> = { NO_COLOR: "1" };
let standIn = false;
if (!Deno.env.get("DENORT_BIN")) {
  const online = await fetch("https://dl.deno.land/", { signal: AbortSignal.timeout(5_000) }).then(
    () => true,
    () => false,
  );
  if (!online) {
    env.DENORT_BIN = Deno.execPath();
    standIn = true;
  }
}
const runtime = env.DENORT_BIN ?? Deno.env.get("DENORT_BIN");
const work = await Deno.makeTempDir({ prefix: "binary-size-" });
const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

try {
  const out = `${work}/app`;
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["compile", ...args.map((a, i) => args[i - 1] === "--output" ? out : a)],
    cwd: root,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  if (code !== 0) throw new Error(`deno compile failed:\n${text}`);
  // "Files: 131.44MB" and "├── node_modules/* (129.1MB - 124.47MB unique)".
  const size = (pattern: RegExp) => text.match(pattern)?.[1] ?? "not printed";
  let dbPackage = 0;
  if (mmdb) {
    const dir = new URL(".", await Deno.realPath(new URL(mmdb, root)).then((p) => `file://${p}`));
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile) dbPackage += (await Deno.stat(new URL(entry.name, dir))).size;
    }
  }
  const rows = [
    ["executable", mb((await Deno.stat(out)).size)],
    [
      `runtime${standIn ? " (the full deno CLI standing in for denort: no internet here)" : ""}`,
      runtime ? mb((await Deno.stat(runtime)).size) : "downloaded denort",
    ],
    ["embedded files", size(/Files:\s*([\d.]+\s*[KMG]?B)/)],
    [
      "of which node_modules (the whole folder: deno compile embeds it all)",
      size(/node_modules\/\*? \(([\d.]+[KMG]?B)/),
    ],
    [
      "of which the IP database's package (its IPv4, IPv6 and combined files)",
      dbPackage ? mb(dbPackage) : "none",
    ],
    [
      `of which the file the server reads (${mmdb?.split("/").pop()})`,
      mmdb ? mb((await Deno.stat(new URL(mmdb, root))).size) : "none",
    ],
  ];
  console.log(`deno compile ${Deno.version.deno}${standIn ? ": totals are upper bounds" : ""}`);
  console.log("| part | size |\n| --- | ---: |");
  for (const [part, value] of rows) console.log(`| ${part} | ${value} |`);
} finally {
  await Deno.remove(work, { recursive: true });
}
Deno.exit(0);
