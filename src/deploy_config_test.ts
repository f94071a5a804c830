// The deployment files agree with the code: .env.example and the README's configuration table list exactly the
// variables src/config.ts reads, docker-compose.yml hands every one of them to the app (env_file) behind Caddy,
// and the shipped Caddyfile is one Caddy accepts.
import assert from "node:assert/strict";
import { load as parseYaml } from "js-yaml";
import { loadConfig } from "./config.ts";

const root = new URL("../", import.meta.url);
const read = (path: string) => Deno.readTextFile(new URL(path, root));
const CADDY = Deno.env.get("CADDY_PATH") || "/usr/bin/caddy";
const HAS_CADDY = await Deno.stat(CADDY).then((s) => s.isFile, () => false);

/** Every variable the configuration reads: the keys loadConfig asks its environment for. */
function configVariables(): string[] {
  const asked = new Set<string>();
  const env = new Proxy({} as Record<string, string | undefined>, {
    get(_, key) {
      if (typeof key === "string") asked.add(key);
      return undefined;
    },
  });
  try {
    loadConfig(env);
  } catch {
    // a variable that becomes required still counts as read
  }
  return [...asked].sort();
}

/** `NAME=value` lines of an env file, in order, with the comment lines just above each. */
function envFile(text: string): { name: string; value: string; comment: string }[] {
  const out: { name: string; value: string; comment: string }[] = [];
  let comment: string[] = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) comment.push(line.replace(/^#\s?/, ""));
    else if (line.trim() === "") comment = [];
    else {
      const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
      assert.ok(match, `.env.example: not NAME=value: ${line}`);
      out.push({ name: match[1], value: match[2], comment: comment.join(" ") });
      comment = [];
    }
  }
  return out;
}

/** The variables docker-compose.yml interpolates (`${NAME}`, `${NAME:?…}`, `${NAME:-…}`). */
function composeVariables(text: string): string[] {
  return [...new Set([...text.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]))].sort();
}

// deno-lint-ignore no-explicit-any
type Yaml = any;

Deno.test("deploy: .env.example lists every variable src/config.ts reads, and no other but the compose file's", async () => {
  const config = configVariables();
  assert.ok(config.length >= 36, `only ${config.length} variables seen: ${config}`);
  const entries = envFile(await read(".env.example"));
  const names = entries.map((e) => e.name);
  assert.deepEqual(names.filter((n, i) => names.indexOf(n) !== i), [], "listed twice");
  const composeOnly = composeVariables(await read("docker-compose.yml")).filter((n) => !config.includes(n));
  assert.deepEqual(
    config.filter((n) => !names.includes(n)),
    [],
    "variables src/config.ts reads that .env.example does not list",
  );
  assert.deepEqual(
    names.filter((n) => !config.includes(n) && !composeOnly.includes(n)),
    [],
    ".env.example lists variables that neither src/config.ts nor docker-compose.yml reads",
  );
  for (const entry of entries) {
    assert.ok(entry.comment.length > 10, `${entry.name}: one line saying what it is`);
    // Empty = the default: a copied .env changes nothing until a value is filled in.
    assert.equal(entry.value, "", `${entry.name}: leave the value empty in the example`);
  }
  // The copied file, as is, is a valid configuration (every empty value is "unset").
  loadConfig(Object.fromEntries(entries.map((e) => [e.name, e.value])));
});

Deno.test("deploy: the README's configuration table lists exactly the variables src/config.ts reads", async () => {
  const readme = await read("README.md");
  const section = readme.slice(readme.indexOf("## Configuration"));
  const table = section.slice(0, section.indexOf("\n\n", section.indexOf("| variable")));
  const names = [...table.matchAll(/^\| `([A-Z][A-Z0-9_]*)`/gm)].map((m) => m[1]).sort();
  assert.deepEqual(names, configVariables());
});

Deno.test("deploy: docker-compose.yml puts Caddy in front and hands every setting to the app", async () => {
  const text = await read("docker-compose.yml");
  const compose: Yaml = parseYaml(text);
  const { caddy, app, db } = compose.services;
  assert.ok(caddy && app && db, "services caddy, app and db");

  // Every setting reaches the app: .env as a whole, and the example lists whatever the file interpolates.
  assert.deepEqual([app.env_file].flat(), [".env"]);
  const example = envFile(await read(".env.example")).map((e) => e.name);
  for (const name of composeVariables(text)) assert.ok(example.includes(name), `${name} in .env.example`);

  // Only Caddy is published; the app is reached on the internal network.
  assert.equal(app.ports, undefined, "the app is not published on the host");
  assert.equal(db.ports, undefined, "the database is not published on the host");
  assert.deepEqual([...caddy.ports].sort(), ["443:443", "443:443/udp", "80:80"]);
  assert.match(caddy.image, /^caddy:2/);
  assert.ok(caddy.volumes.includes("./deploy/Caddyfile:/etc/caddy/Caddyfile:ro"));
  assert.ok((await Deno.stat(new URL("deploy/Caddyfile", root))).isFile);
  assert.equal(caddy.environment.APP_UPSTREAM, `app:${app.environment.PORT}`);
  assert.match(caddy.environment.SITE_DOMAIN, /^\$\{SITE_DOMAIN:\?/, "SITE_DOMAIN is required");
  for (const volume of ["caddy-data:/data", "caddy-config:/config"]) {
    assert.ok(caddy.volumes.includes(volume));
  }

  // The app trusts X-Forwarded-For from Caddy's network only, and the two share that network.
  assert.equal(app.environment.TRUST_PROXY, "1");
  const subnet = compose.networks.front.ipam.config[0].subnet;
  assert.equal(app.environment.TRUSTED_PROXIES, subnet);
  assert.ok(caddy.networks.includes("front") && app.networks.includes("front"));
  assert.ok(!db.networks.includes("front"), "the database is not on Caddy's network");
  // The app's settings that describe this setup are valid as written.
  const pinned = Object.fromEntries(
    Object.entries(app.environment as Record<string, string>).filter(([, v]) => !v.includes("${")),
  );
  const config = loadConfig(pinned);
  assert.equal(config.DATA_DIR, "/data");
  assert.ok(app.volumes.some((v: string) => v.endsWith(":/data")));
  assert.ok(app.volumes.some((v: string) => v.endsWith(":/backups")), "backups live outside /data");
});

Deno.test({
  name: "deploy: caddy validate accepts deploy/Caddyfile",
  ignore: !HAS_CADDY,
  fn: async () => {
    const home = await Deno.makeTempDir({ prefix: "caddy_validate_" });
    const { code, stdout, stderr } = await new Deno.Command(CADDY, {
      args: ["validate", "--config", new URL("deploy/Caddyfile", root).pathname, "--adapter", "caddyfile"],
      env: { SITE_DOMAIN: "www.example.com", HOME: home, XDG_DATA_HOME: home, XDG_CONFIG_HOME: home },
    }).output().finally(() => Deno.remove(home, { recursive: true }).catch(() => {}));
    const out = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
    assert.equal(code, 0, out);
    assert.match(out, /Valid configuration/);
  },
});

const isFile = (path: string) => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
};
const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find(isFile);

Deno.test({
  name:
    "deploy: nginx -t accepts deploy/nginx.conf (with a throwaway certificate in place of Let's Encrypt's)",
  ignore: !NGINX,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "nginx_t_" });
    try {
      const made = await new Deno.Command("openssl", {
        args: [
          "req",
          "-x509",
          "-newkey",
          "ec",
          "-pkeyopt",
          "ec_paramgen_curve:prime256v1",
          "-nodes",
          "-days",
          "1",
        ]
          .concat(["-subj", "/CN=www.example.com", "-keyout", `${dir}/key.pem`, "-out", `${dir}/cert.pem`]),
        stderr: "null",
      }).output();
      assert.equal(made.code, 0, "openssl made a certificate");
      const site = (await read("deploy/nginx.conf"))
        .replace("/etc/letsencrypt/live/www.example.com/fullchain.pem", `${dir}/cert.pem`)
        .replace("/etc/letsencrypt/live/www.example.com/privkey.pem", `${dir}/key.pem`);
      await Deno.writeTextFile(`${dir}/site.conf`, site);
      await Deno.writeTextFile(
        `${dir}/nginx.conf`,
        `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n  include ${dir}/site.conf;\n}\n`,
      );
      const { code, stderr } = await new Deno.Command(NGINX!, {
        args: ["-t", "-c", `${dir}/nginx.conf`, "-p", dir],
      })
        .output();
      const out = new TextDecoder().decode(stderr);
      assert.equal(code, 0, out);
      assert.match(out, /test is successful/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
