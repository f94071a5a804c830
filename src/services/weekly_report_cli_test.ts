// `deno task report:send --week …` (scripts/report_send.ts) as an operator runs it: a bad week is a clear
// error, exit 2, before any database is opened; a good one is sent to the local SMTP server and printed.
import assert from "node:assert/strict";
import { fakeSmtp } from "../../testing/delivery_fakes.ts";
import { copyDataDir } from "../../testing/db_template.ts";
import { readMail } from "../../testing/mime.ts";

const SCRIPT = new URL("../../scripts/report_send.ts", import.meta.url).pathname;

async function run(args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-check", SCRIPT, ...args],
    env: { ANALYTICS_TZ: "America/Sao_Paulo", ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

const SMTP = {
  SMTP_URL: "smtp://127.0.0.1:1",
  LEAD_NOTIFY_TO: "vendas@zapflow.com.br",
  LEAD_NOTIFY_FROM: "ZapFlow <site@zapflow.com.br>",
};

Deno.test("report:send: a bad or missing week is a clear error with exit code 2", async () => {
  const dataDir = await Deno.makeTempDir();
  try {
    for (
      const [args, message] of [
        [["--week", "2026-47"], /"2026-47" não é uma semana ISO: escreva .* como 2026-W47/],
        [["--week", "2025-W53"], /"2025-W53" não é uma semana ISO/],
        [["--week", "2999-W01"], /a semana 2999-W01 \(2998-12-31 a 2999-01-06\) ainda não terminou/],
        [[], /which week\? give --week/],
        [["--weak", "2026-W47"], /Unknown option '--weak'/],
      ] as const
    ) {
      const r = await run([...args], { ...SMTP, DATA_DIR: dataDir });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /usage: deno task report:send --week 2026-W47/);
    }
    const noSmtp = await run(["--week", "2026-W47"], { DATA_DIR: dataDir });
    assert.equal(noSmtp.code, 2);
    assert.match(noSmtp.stderr, /SMTP is not configured/);
    // Nothing was opened: the data folder is still empty.
    assert.deepEqual([...Deno.readDirSync(dataDir)], []);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test({
  name: "report:send: sends the week to REPORT_TO and prints what was sent",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const smtp = await fakeSmtp();
    const dataDir = await Deno.makeTempDir();
    try {
      await copyDataDir(`${dataDir}/db`);
      const r = await run(["--week", "2026-W47"], {
        ...SMTP,
        SMTP_URL: smtp.url,
        REPORT_TO: "socio@zapflow.com.br",
        DATA_DIR: `${dataDir}/db`,
        PUBLIC_ORIGIN: "https://www.zapflow.com.br",
      });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^sent: ZapFlow: relatório da semana 47 \(16\/11 a 22\/11\/2026\)$/m);
      assert.match(r.stdout, /^to: socio@zapflow\.com\.br$/m);
      assert.match(
        r.stdout,
        /^week: 2026-W47 \(16\/11 a 22\/11\/2026\), compared with 09\/11 a 15\/11\/2026$/m,
      );
      assert.match(r.stdout, /^ {2}Leads: 0 \(semana anterior: 0\)$/m);
      assert.match(
        r.stdout,
        /^link: https:\/\/www\.zapflow\.com\.br\/pt-br\/admin\?startDate=2026-11-16&endDate=2026-11-22$/m,
      );
      assert.equal(smtp.received.length, 1);
      assert.deepEqual(smtp.received[0].to, ["socio@zapflow.com.br"]);
      assert.match(readMail(smtp.received[0].raw).text, /Ver esta semana no painel: https:\/\/www\.zapflow/);
    } finally {
      await smtp.down();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
