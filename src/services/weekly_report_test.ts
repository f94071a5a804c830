// The weekly report received by a local SMTP server: a seeded week's figures against the week before, in its
// HTML and text parts, with the link to that week in the dashboard and never a lead's e-mail or phone; sent
// once per week by two schedulers on one database; retried with backoff after a failure, never resent.
import assert from "node:assert/strict";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { dbTest } from "../../testing/db.ts";
import { testConfig } from "../../testing/app.ts";
import { fakeSmtp } from "../../testing/delivery_fakes.ts";
import { readMail } from "../../testing/mime.ts";
import { sp } from "../../testing/analytics_fixture.ts";
import { LEADS, seedWeeks } from "../../testing/weekly_report_fixture.ts";
import { setLogSink } from "../core/log.ts";
import { startJob } from "./jobs.ts";
import { LEASE_MS, setReportEnabled } from "./weekly_report.ts";
import { claimWeeklyReport, markWeeklyReportSent } from "../db/weekly_reports.ts";
import { scheduledJobs } from "./schedule.ts";
import {
  backoffMs,
  dueWeek,
  runWeeklyReport,
  weeklyReportJob,
  weeklyReportStatus,
  weekProblem,
} from "./weekly_report.ts";
import { weeklyMessage } from "./weekly_report_email.ts";

const ADMIN = "dono@zapflow.com.br";
const TZ = "America/Sao_Paulo";
/** Monday of ISO week 2026-W48, 09:00 in São Paulo: W47's report is due. */
const MONDAY_9AM = sp("2026-11-23T09:00:00");

function smtpConfig(port: number, env: Record<string, string> = {}): Config {
  return testConfig({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    LEAD_NOTIFY_TO: "vendas@zapflow.com.br",
    LEAD_NOTIFY_FROM: "ZapFlow <site@zapflow.com.br>",
    ANALYTICS_TZ: TZ,
    ...env,
  });
}

Deno.test("weekly report: due from Monday 08:00 local for last week, the week before until then", () => {
  assert.equal(dueWeek(MONDAY_9AM, TZ), "2026-W47");
  assert.equal(dueWeek(sp("2026-11-23T08:00:00"), TZ), "2026-W47");
  assert.equal(dueWeek(sp("2026-11-23T07:59:59"), TZ), "2026-W46");
  // 08:00 in São Paulo is 11:00 UTC: at 10:00 UTC on Monday it is not due yet.
  assert.equal(dueWeek(new Date("2026-11-23T10:00:00Z"), TZ), "2026-W46");
  assert.equal(dueWeek(sp("2026-11-29T23:59:00"), TZ), "2026-W47");
  assert.equal(weekProblem("2026-W47", TZ, MONDAY_9AM), null);
  assert.match(weekProblem("2026-W48", TZ, MONDAY_9AM)!, /ainda não terminou/);
  assert.match(weekProblem("2026-47", TZ, MONDAY_9AM)!, /não é uma semana ISO/);
  assert.match(weekProblem("2025-W53", TZ, MONDAY_9AM)!, /não é uma semana ISO/);
});

Deno.test("weekly report: backoff doubles from a minute up to an hour", () => {
  assert.equal(backoffMs(1, () => 0), 60_000);
  assert.equal(backoffMs(2, () => 0), 120_000);
  assert.equal(backoffMs(7, () => 0), 3_600_000);
  assert.equal(backoffMs(30, () => 1), 4_320_000);
});

dbTest(
  "weekly report: the e-mail has the seeded week's figures, its deltas and link, no lead data",
  async (db) => {
    const smtp = await fakeSmtp();
    const restore = setLogSink(() => {});
    try {
      await seedWeeks(db);
      await db.query("insert into admins (email, password_hash) values ($1, 'x')", [ADMIN]);
      const config = smtpConfig(smtp.port, { REPORT_TO: "socio@zapflow.com.br, DONO@zapflow.com.br" });
      const job = weeklyReportJob(db, config, { now: () => MONDAY_9AM })!;
      assert.deepEqual(await job.run(db, MONDAY_9AM), { week: "2026-W47", reportsSent: 1 });
      job.close?.();
      assert.equal(smtp.received.length, 1);
      const [received] = smtp.received;
      // The administrator once (REPORT_TO repeats it in capitals) and REPORT_TO.
      assert.deepEqual(received.to.sort(), [ADMIN, "socio@zapflow.com.br"]);
      const mail = readMail(received.raw);
      assert.equal(mail.subject, "ZapFlow: relatório da semana 47 (16/11 a 22/11/2026)");
      assert.match(mail.headers["message-id"], /^<weekly-report-2026-W47@localhost>$/);
      assert.match(mail.headers["from"], /site@zapflow\.com\.br/);
      assert.ok(mail.html.length > 0 && mail.text.length > 0, "both parts");

      const text = mail.text;
      assert.match(text, /comparados com a semana anterior \(09\/11 a 15\/11\/2026\)/);
      assert.match(text, /^Visitantes únicos: 8 \(▲ 60,0%; semana anterior: 5\)$/m);
      assert.match(text, /^Visitas: 1\.212 \(▲ 20\.100,0%; semana anterior: 6\)$/m);
      assert.match(text, /^Visualizações de página: 1\.212 \(▲ 20\.100,0%; semana anterior: 6\)$/m);
      assert.match(text, /^Cliques nos planos: 4 \(▲ 100,0%; semana anterior: 2\)$/m);
      assert.match(text, /^Cliques no WhatsApp: 3 \(▲ 200,0%; semana anterior: 1\)$/m);
      assert.match(text, /^Leads: 2 \(▲ 100,0%; semana anterior: 1\)$/m);
      assert.match(text, /^Taxa de conversão: 50,0% \(= 0 p\.p\.; semana anterior: 50,0%\)$/m);
      assert.match(text, /^ {2}Pesquisa orgânica: 1\.207 \(▲ 20\.016,7%\), 1 \(= 0%\)$/m);
      assert.match(text, /^ {2}Social pago: 5 \(novo\), 1 \(novo\)$/m);
      assert.match(text, /^ {2}google: 1\.207 \(▲ 20\.016,7%\)$/m);
      assert.match(text, /^ {2}instagram: 5 \(novo\)$/m);
      assert.match(text, /^ {2}\/pt-br: 1\.207 \(▲ 20\.016,7%\)$/m);
      assert.match(text, /^ {2}\/pt-br\/pipefy: 5 \(novo\)$/m);
      assert.match(
        text,
        /1 lead da semana não foi entregue a alguma ferramenta de vendas \(semana anterior: 0\)/,
      );
      const link = "http://localhost:8000/pt-br/admin?startDate=2026-11-16&endDate=2026-11-22";
      assert.ok(text.includes(`Ver esta semana no painel: ${link}`), text);
      // No states section without a source of states.
      assert.doesNotMatch(text, /Leads por estado/);

      const html = mail.html;
      // In an attribute `&` is written `&#38;`, which every mail client reads back as `&`.
      assert.ok(
        html.includes(`href="${link.replaceAll("&", "&#38;")}"`),
        "the HTML links to the week in the dashboard",
      );
      for (
        const f of ["Visitantes únicos", "Cliques no WhatsApp", "Taxa de conversão", "Principais canais"]
      ) {
        assert.ok(html.includes(f), f);
      }
      assert.ok(html.includes(">1.212<"), "pt-BR thousands");
      assert.ok(html.includes("▲ 60,0%"));
      assert.ok(html.includes("Pesquisa orgânica"));
      assert.doesNotMatch(html, /<script|<img|<link|class=/i, "inline styles only, nothing to load");

      for (const lead of [...LEADS, { name: "Depois", email: "depois@x.com", whatsapp: "" }]) {
        for (const part of [received.raw, text, html]) {
          assert.ok(!part.includes(lead.email), `no lead e-mail (${lead.email})`);
          assert.ok(!part.includes(lead.name), `no lead name (${lead.name})`);
        }
        const digits = lead.whatsapp.replace(/\D/g, "");
        if (digits) {
          for (const part of [text, html]) {
            assert.ok(!part.replace(/\D/g, " ").split(/\s+/).includes(digits), "no lead phone");
            assert.ok(!part.includes(lead.whatsapp), "no lead phone as typed");
          }
        }
      }

      // Sent: the next runs of that week send nothing.
      const again = weeklyReportJob(db, config, { now: () => MONDAY_9AM })!;
      assert.deepEqual(await again.run(db, new Date(MONDAY_9AM.getTime() + 3_600_000)), {
        week: "2026-W47",
        reportsSent: 0,
      });
      again.close?.();
      assert.equal(smtp.received.length, 1);
      const status = await weeklyReportStatus(db, config);
      assert.equal(status.last?.week, "2026-W47");
      assert.equal(status.last?.status, "sent");
      assert.equal(status.last?.recipients, 2);
    } finally {
      restore();
      await smtp.down();
    }
  },
);

dbTest("weekly report: a states section only when a source of states is given", async (db) => {
  const smtp = await fakeSmtp();
  const restore = setLogSink(() => {});
  try {
    await db.query("insert into admins (email, password_hash) values ($1, 'x')", [ADMIN]);
    const config = smtpConfig(smtp.port);
    const asked: string[] = [];
    const job = weeklyReportJob(db, config, {
      leadsByState: (range) => {
        asked.push(`${range.start}..${range.end}`);
        return Promise.resolve(
          range.start === "2026-11-16"
            ? [{ state: "SP", leads: 7 }, { state: "RJ", leads: 3 }, { state: "MG", leads: 3 }]
            : [{ state: "SP", leads: 2 }],
        );
      },
    })!;
    await job.run(db, MONDAY_9AM);
    job.close?.();
    assert.deepEqual(asked.sort(), ["2026-11-09..2026-11-15", "2026-11-16..2026-11-22"]);
    const { text, html } = readMail(smtp.received[0].raw);
    assert.match(
      text,
      /^Leads por estado \(Leads\)\n {2}SP: 7 \(▲ 250,0%\)\n {2}MG: 3 \(novo\)\n {2}RJ: 3 \(novo\)$/m,
    );
    assert.ok(html.includes("Leads por estado"));
    // An empty week still reads well.
    assert.match(text, /^Principais canais\n {2}Nada registrado na semana\.$/m);
    assert.match(text, /^Taxa de conversão: 0,0% \(—; semana anterior: 0,0%\)$/m);
  } finally {
    restore();
    await smtp.down();
  }
});

dbTest("weekly report: two schedulers on one database send exactly one e-mail", async (db) => {
  const smtp = await fakeSmtp();
  const restore = setLogSink(() => {});
  try {
    await db.query("insert into admins (email, password_hash) values ($1, 'x')", [ADMIN]);
    const config = smtpConfig(smtp.port);
    const jobs = [1, 2].map(() =>
      startJob(weeklyReportJob(db, config, { now: () => MONDAY_9AM, every: 20 })!)
    );
    // Both start at once and keep checking.
    await Promise.all(jobs.map((j) => j.runNow()));
    const until = Date.now() + 1500;
    while (Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await Promise.all(jobs.map((j) => j.stop()));
    assert.equal(smtp.received.length, 1);
    const [row] = await db.query<{ status: string; attempts: number }>(
      "select status, attempts from weekly_reports where week = '2026-W47'",
    );
    assert.deepEqual({ ...row }, { status: "sent", attempts: 1 });
  } finally {
    restore();
    await smtp.down();
  }
});

dbTest("weekly report: a failed send is retried with backoff until sent, then never again", async (db) => {
  const smtp = await fakeSmtp();
  const restore = setLogSink(() => {});
  try {
    await db.query("insert into admins (email, password_hash) values ($1, 'x')", [ADMIN]);
    const config = smtpConfig(smtp.port);
    const job = weeklyReportJob(db, config, { random: () => 0 })!;
    let t = MONDAY_9AM.getTime();
    smtp.mode = "500";
    await assert.rejects(() => job.run(db, new Date(t)), /weekly report 2026-W47, attempt 1: .*451/);
    // Not due again before its backoff (a minute after the first failure).
    assert.deepEqual(await job.run(db, new Date(t + 30_000)), { week: "2026-W47", reportsSent: 0 });
    t += 60_000;
    await assert.rejects(() => job.run(db, new Date(t)), /attempt 2/);
    assert.deepEqual(await job.run(db, new Date(t + 90_000)), { week: "2026-W47", reportsSent: 0 });
    const [failing] = await db.query<{ attempts: number; last_error: string }>(
      "select attempts, last_error from weekly_reports",
    );
    assert.equal(failing.attempts, 2);
    assert.match(failing.last_error, /451/);
    smtp.mode = "ok";
    t += 120_000;
    assert.deepEqual(await job.run(db, new Date(t)), { week: "2026-W47", reportsSent: 1 });
    assert.deepEqual(await job.run(db, new Date(t + 3_600_000)), { week: "2026-W47", reportsSent: 0 });
    job.close?.();
    assert.equal(smtp.received.length, 1);
    assert.equal(smtp.hits, 3);
  } finally {
    restore();
    await smtp.down();
  }
});

dbTest("weekly report: the switch off sends nothing; on again, the due week goes", async (db) => {
  const smtp = await fakeSmtp();
  const restore = setLogSink(() => {});
  try {
    await db.query("insert into admins (email, password_hash) values ($1, 'x')", [ADMIN]);
    const config = smtpConfig(smtp.port);
    const mailer = weeklyReportJob(db, config)!;
    await setReportEnabled(db, false, MONDAY_9AM);
    assert.equal((await weeklyReportStatus(db, config)).enabled, false);
    assert.deepEqual(await mailer.run(db, MONDAY_9AM), { week: "2026-W47", reportsSent: 0 });
    assert.equal(smtp.hits, 0);
    assert.equal((await db.query("select 1 from weekly_reports")).length, 0);
    await setReportEnabled(db, true, MONDAY_9AM);
    assert.deepEqual(await mailer.run(db, MONDAY_9AM), { week: "2026-W47", reportsSent: 1 });
    mailer.close?.();
  } finally {
    restore();
    await smtp.down();
  }
});

Deno.test("weekly report: no job without SMTP; nobody to send to, nothing claimed", async () => {
  assert.equal(weeklyReportJob({} as Db, testConfig()), null);
  // runWeeklyReport with no administrator and no REPORT_TO: covered through a fake database answering the
  // switch (none stored) and an empty admins table.
  const queries: string[] = [];
  const db = {
    query: (sql: string) => {
      queries.push(sql);
      return Promise.resolve([]);
    },
  } as unknown as Db;
  const result = await runWeeklyReport(db, smtpConfig(1), {
    send: () => Promise.reject(new Error("not called")),
    close: () => {},
  }, MONDAY_9AM);
  assert.deepEqual(result, { week: "2026-W47", reportsSent: 0 });
  assert.ok(queries.every((q) => !/weekly_reports/.test(q)), "nothing claimed");
});

Deno.test("weekly report: the message escapes names it did not write", () => {
  const table = (title: string) => ({ title, first: "x", columns: ["Visualizações"], rows: [] });
  const { html } = weeklyMessage({
    week: "2026-W47",
    range: { start: "2026-11-16", end: "2026-11-22" },
    previous: { start: "2026-11-09", end: "2026-11-15" },
    timeZone: TZ,
    figures: [],
    channels: table("Principais canais"),
    sources: {
      ...table("Principais origens"),
      rows: [{ label: "<b>evil</b>", cells: [{ current: 1, previous: 0 }] }],
    },
    pages: table("Páginas mais visitadas"),
    failedDeliveries: { current: 0, previous: 0 },
    dashboardUrl: "http://localhost:8000/pt-br/admin?startDate=2026-11-16&endDate=2026-11-22",
  }, "ZapFlow");
  assert.ok(!html.includes("<b>evil</b>"));
  assert.ok(html.includes("&#60;b&#62;evil&#60;/b&#62;"));
  assert.ok(html.includes("startDate=2026-11-16&#38;endDate=2026-11-22"));
});

dbTest(
  "weekly report: a week held by an instance that stopped mid-send is taken again after the lease",
  async (db) => {
    const t = MONDAY_9AM.getTime();
    assert.equal(await claimWeeklyReport(db, "2026-W47", new Date(t), LEASE_MS), 1);
    // Another instance, a minute later: held.
    assert.equal(await claimWeeklyReport(db, "2026-W47", new Date(t + 60_000), LEASE_MS), null);
    // The first never came back: after the lease, the next attempt.
    assert.equal(await claimWeeklyReport(db, "2026-W47", new Date(t + LEASE_MS), LEASE_MS), 2);
    // The first one's late answer changes nothing: the week is the second attempt's now.
    assert.equal(await markWeeklyReportSent(db, "2026-W47", 1, new Date(t + LEASE_MS), 1), false);
    assert.equal(await markWeeklyReportSent(db, "2026-W47", 2, new Date(t + LEASE_MS), 1), true);
    assert.equal(await claimWeeklyReport(db, "2026-W47", new Date(t + 2 * LEASE_MS), LEASE_MS), null);
  },
);

dbTest("weekly report: the server schedules the job only when SMTP is configured", async (db) => {
  const names = async (config: Config) => (await scheduledJobs(db, config)).map((j) => j.name);
  assert.ok(!(await names(testConfig())).includes("weekly-report"));
  const jobs = await scheduledJobs(db, smtpConfig(1));
  assert.ok(jobs.some((j) => j.name === "weekly-report"));
  for (const job of jobs) job.close?.();
});

dbTest(
  "weekly report: the server's job counts the week's leads per state of their WhatsApp DDD",
  async (db) => {
    const smtp = await fakeSmtp();
    const restore = setLogSink(() => {});
    try {
      await db.query("insert into admins (email, password_hash) values ($1, 'x')", [ADMIN]);
      await seedWeeks(db);
      const jobs = await scheduledJobs(db, smtpConfig(smtp.port));
      const job = jobs.find((j) => j.name === "weekly-report")!;
      await job.run(db, MONDAY_9AM);
      for (const j of jobs) j.close?.();
      const { text, html } = readMail(smtp.received[0].raw);
      // Week 47: a (11) number and a +55 21 one; week 46: a (31) one, which is not in this week's table.
      assert.match(
        text,
        /^Leads por estado \(Leads\)\n {2}Rio de Janeiro: 1 \(novo\)\n {2}São Paulo: 1 \(novo\)$/m,
      );
      assert.ok(html.includes("Rio de Janeiro"));
      for (const lead of LEADS) assert.ok(!text.includes(lead.whatsapp) && !html.includes(lead.whatsapp));
    } finally {
      restore();
      await smtp.down();
    }
  },
);
