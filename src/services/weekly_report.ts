// The weekly report by e-mail: every Monday from 08:00 in ANALYTICS_TZ, last week's figures (Monday to Sunday,
// ISO week) against the week before, to the administrator and REPORT_TO, when SMTP is configured and the
// dashboard's switch is on. Every instance runs the job each minute; the week's row in weekly_reports
// (db/weekly_reports.ts) lets one of them send it, retries a failure with backoff on a later run, and keeps a
// sent week from being sent again. The figures are the dashboard's own (shared/metrics.ts names), counts only.
import nodemailer from "nodemailer";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { DayRange } from "../db/dashboard_queries.ts";
import { firstAdminEmail } from "../db/admins.ts";
import {
  claimWeeklyReport,
  latestWeeklyReport,
  leadsWithFailedDelivery,
  markWeeklyReportFailed,
  markWeeklyReportSent,
  setWeeklyReportSetting,
  type WeeklyReportRecord,
  weeklyReportSetting,
} from "../db/weekly_reports.ts";
import { whatsappClickTotal } from "../db/whatsapp_clicks.ts";
import { addDays, timeIn, todayIn } from "../shared/dashboard_math.ts";
import { channelLabel } from "../shared/channels.ts";
import { plainAddress } from "../shared/email.ts";
import { writeView } from "../shared/filters.ts";
import { isoWeekOf, isoWeekRange, mondayOf, previousIsoWeek } from "../shared/iso_week.ts";
import { type MetricId, METRICS, sourceLabel } from "../shared/metrics.ts";
import { SITE } from "../site.ts";
import { log } from "../core/log.ts";
import { pageRanking, periodSummary } from "./dashboard_reports.ts";
import { engagementSummary } from "./engagement.ts";
import type { JobSpec } from "./jobs.ts";
import { configSecrets, DELIVERY_TIMEOUT_MS, redact } from "./lead_destinations.ts";
import { channelReport, trafficSourceRanking } from "./traffic_reports.ts";
import { type WeeklyMessage, weeklyMessage } from "./weekly_report_email.ts";

/** Local time of day, on Mondays, from which last week's report is due. */
export const SEND_TIME = "08:00:00";
/** Rows of each ranking in the e-mail. */
export const REPORT_TOP = 5;
/** How long an instance holds a week while sending it: another one may take it after this. */
export const LEASE_MS = 15 * 60_000;
/** The longest wait between two attempts of a week that keeps failing. */
export const MAX_BACKOFF_MS = 60 * 60_000;
/** The whole SMTP exchange, on top of nodemailer's own per-step timeouts. */
const SEND_LIMIT_MS = 3 * DELIVERY_TIMEOUT_MS;

/** One headline figure, named as the dashboard names it. */
export interface WeeklyFigure {
  id: MetricId;
  name: string;
  current: number;
  previous: number;
  /** A percentage: its change is written in percentage points. */
  rate?: boolean;
  /** A rate whose denominator was 0 the week before: nothing to compare. */
  noBase?: boolean;
}

/** A ranking of the e-mail: a name per row and one or more counts, each with the week before's. */
export interface WeeklyTable {
  title: string;
  /** The heading of the names' column. */
  first: string;
  columns: string[];
  rows: { label: string; cells: { current: number; previous: number }[] }[];
}

/** Leads per Brazilian state (its two-letter code or name) in a range. */
export interface StateLeads {
  state: string;
  leads: number;
}

/** Where the leads of a range came from by state; when given, the e-mail has a "Leads por estado" table. */
export type LeadsByState = (range: DayRange) => Promise<StateLeads[]>;

/** Everything one week's e-mail says. */
export interface WeeklyReport {
  week: string;
  range: DayRange;
  previous: DayRange;
  timeZone: string;
  figures: WeeklyFigure[];
  channels: WeeklyTable;
  sources: WeeklyTable;
  pages: WeeklyTable;
  /** Only when a LeadsByState was given. */
  states?: WeeklyTable;
  /** Leads of the week (and of the week before) with a delivery to a sales tool failed for good. */
  failedDeliveries: { current: number; previous: number };
  /** The dashboard showing this week. */
  dashboardUrl: string;
}

export interface WeeklyReportOptions {
  leadsByState?: LeadsByState;
}

/** The dashboard's address showing these days, as the dashboard reads its own address (shared/filters.ts). */
export function weekDashboardUrl(config: Config, range: DayRange): string {
  return `${config.PUBLIC_ORIGIN}/pt-br/admin?${writeView({ ...range, filters: {} })}`;
}

/**
 * The most recent week whose report is due at `now`: last week from Monday 08:00 (local), the week before
 * until then.
 */
export function dueWeek(now: Date, tz: string): string {
  const today = todayIn(tz, now);
  const monday = mondayOf(today);
  const sendsToday = today !== monday || timeIn(tz, now) >= SEND_TIME;
  return isoWeekOf(addDays(monday, sendsToday ? -7 : -14));
}

/** Why a week cannot be reported: not an ISO week, or not over yet at `now`. Null when it can. */
export function weekProblem(week: string, tz: string, now: Date): string | null {
  const range = isoWeekRange(week);
  if (!range) {
    return `"${week}" não é uma semana ISO: escreva o ano, -W e o número da semana com dois dígitos, ` +
      "como 2026-W47 (a semana 53 só existe em alguns anos)";
  }
  if (range.end >= todayIn(tz, now)) {
    return `a semana ${week} (${range.start} a ${range.end}) ainda não terminou`;
  }
  return null;
}

const top = <T>(rows: T[]) => rows.slice(0, REPORT_TOP);

/** The figures of one ISO week (over at `now`) and of the week before. */
export async function weeklyReport(
  db: Db,
  config: Config,
  week: string,
  now: Date,
  options: WeeklyReportOptions = {},
): Promise<WeeklyReport> {
  const tz = config.ANALYTICS_TZ;
  const range = isoWeekRange(week);
  if (!range) throw new RangeError(`not an ISO week: ${week}`);
  const previous = isoWeekRange(previousIsoWeek(week))!;
  const [
    summary,
    engagement,
    whatsapp,
    whatsappBefore,
    channels,
    sources,
    pages,
    pagesBefore,
    failed,
    failedBefore,
  ] = await Promise.all([
    periodSummary(db, range, tz, now),
    engagementSummary(db, range, tz, now),
    whatsappClickTotal(db, range, tz),
    whatsappClickTotal(db, previous, tz),
    channelReport(db, range, tz, now),
    trafficSourceRanking(db, range, tz, now),
    pageRanking(db, range, tz),
    pageRanking(db, previous, tz),
    leadsWithFailedDelivery(db, range, tz),
    leadsWithFailedDelivery(db, previous, tz),
  ]);
  const { current: c, previous: p } = summary;
  const figure = (id: MetricId, current: number, before: number, rate = false): WeeklyFigure => ({
    id,
    name: METRICS[id].name,
    current,
    previous: before,
    ...(rate ? { rate, noBase: p.clicks === 0 } : {}),
  });
  const channelBefore = new Map(channels.previous.map((r) => [r.channel, r]));
  const pageBefore = new Map(pagesBefore.map((r) => [r.page, r.visits]));
  const report: WeeklyReport = {
    week,
    range,
    previous,
    timeZone: tz,
    figures: [
      figure("uniqueVisitors", c.uniqueVisitors, p.uniqueVisitors),
      figure("sessions", engagement.current.sessions, engagement.previous.sessions),
      figure("visits", c.visits, p.visits),
      figure("planClicks", c.clicks, p.clicks),
      figure("whatsappClicks", whatsapp, whatsappBefore),
      figure("leads", c.leads, p.leads),
      figure("conversionRate", c.conversionRate, p.conversionRate, true),
    ],
    channels: {
      title: "Principais canais",
      first: "Canal",
      columns: ["Visualizações", METRICS.leads.name],
      rows: top(channels.current).map((r) => ({
        label: channelLabel(r.channel),
        cells: [
          { current: r.visits, previous: channelBefore.get(r.channel)?.visits ?? 0 },
          { current: r.leads, previous: channelBefore.get(r.channel)?.leads ?? 0 },
        ],
      })),
    },
    sources: {
      title: "Principais origens",
      first: "Origem",
      columns: ["Visualizações"],
      rows: top(sources).map((r) => ({
        label: sourceLabel(r.source),
        cells: [{ current: r.visits, previous: r.previousVisits }],
      })),
    },
    pages: {
      title: "Páginas mais visitadas",
      first: "Página",
      columns: ["Visualizações"],
      rows: top(pages).map((r) => ({
        label: r.page,
        cells: [{ current: r.visits, previous: pageBefore.get(r.page) ?? 0 }],
      })),
    },
    failedDeliveries: { current: failed, previous: failedBefore },
    dashboardUrl: weekDashboardUrl(config, range),
  };
  if (options.leadsByState) {
    const [states, statesBefore] = await Promise.all([
      options.leadsByState(range),
      options.leadsByState(previous),
    ]);
    const before = new Map(statesBefore.map((s) => [s.state, s.leads]));
    report.states = {
      title: "Leads por estado",
      first: "Estado",
      columns: [METRICS.leads.name],
      rows: top([...states].sort((a, b) => b.leads - a.leads || a.state.localeCompare(b.state))).map((s) => ({
        label: s.state,
        cells: [{ current: s.leads, previous: before.get(s.state) ?? 0 }],
      })),
    };
  }
  return report;
}

/** Who gets the report: the administrator's account address and REPORT_TO, each once. */
export async function reportRecipients(db: Db, config: Config): Promise<string[]> {
  const admin = await firstAdminEmail(db);
  const plainAdmin = admin ? plainAddress(admin) : null;
  // Asked every minute: a warning would repeat all week. The dashboard's card lists who receives it.
  if (admin && !plainAdmin) log.debug("weekly report: the administrator's address is not one plain address");
  const seen = new Set<string>();
  return [...(plainAdmin ? [plainAdmin] : []), ...(config.REPORT_TO ?? [])].filter((a) => {
    const key = a.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** True when SMTP is configured: the report can be sent. */
export function reportAvailable(config: Config): boolean {
  return !!config.SMTP_URL && !!config.LEAD_NOTIFY_FROM;
}

/** The switch as it stands: the stored choice, on by default. */
export async function reportEnabled(db: Db): Promise<boolean> {
  return (await weeklyReportSetting(db)) ?? true;
}

export interface ReportMailer {
  send(message: WeeklyMessage & { to: string[]; messageId: string }): Promise<void>;
  close(): void;
}

/** An SMTP transport for the report (SMTP_URL, LEAD_NOTIFY_FROM as sender), every step timed out. */
export function reportMailer(config: Config): ReportMailer {
  const secrets = configSecrets(config);
  const transport = nodemailer.createTransport({
    url: config.SMTP_URL,
    connectionTimeout: DELIVERY_TIMEOUT_MS,
    greetingTimeout: DELIVERY_TIMEOUT_MS,
    socketTimeout: DELIVERY_TIMEOUT_MS,
    dnsTimeout: DELIVERY_TIMEOUT_MS,
  });
  return {
    async send({ to, messageId, ...message }) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        await Promise.race([
          transport.sendMail({ from: config.LEAD_NOTIFY_FROM, to, messageId, ...message }),
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`sem resposta em ${SEND_LIMIT_MS / 1000} s`)),
              SEND_LIMIT_MS,
            );
          }),
        ]);
      } catch (error) {
        // The server's answer may echo the URL's credentials.
        throw new Error(redact(error instanceof Error ? error.message : String(error), secrets));
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => transport.close(),
  };
}

export interface SentReport {
  week: string;
  to: string[];
  subject: string;
  report: WeeklyReport;
}

/** Builds one week's report and sends it to `to` (the same Message-ID on every attempt of that week). */
export async function sendWeeklyReport(
  db: Db,
  config: Config,
  mailer: ReportMailer,
  week: string,
  to: string[],
  now: Date,
  options: WeeklyReportOptions = {},
): Promise<SentReport> {
  const report = await weeklyReport(db, config, week, now, options);
  const message = weeklyMessage(report, SITE.brand);
  const domain = new URL(config.PUBLIC_ORIGIN).hostname;
  await mailer.send({ ...message, to, messageId: `<weekly-report-${week}@${domain}>` });
  return { week, to, subject: message.subject, report };
}

/** The wait before attempt `attempts + 1`: a minute, doubling, at most an hour, plus up to 20% at random. */
export function backoffMs(attempts: number, random: () => number): number {
  const base = Math.min(MAX_BACKOFF_MS, 60_000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (1 + 0.2 * random()));
}

/** What one run of the job did (counts; the week's name). */
export interface WeeklyRunResult {
  week: string;
  reportsSent: number;
}

/**
 * One run: sends the due week's report if the switch is on, there is someone to send it to, and this
 * instance takes the week (not sent, its retry due, nobody else sending). A failed send schedules the next
 * attempt and throws, so the run is recorded as failed.
 */
export async function runWeeklyReport(
  db: Db,
  config: Config,
  mailer: ReportMailer,
  now: Date,
  options: WeeklyReportOptions & { random?: () => number } = {},
): Promise<WeeklyRunResult> {
  const week = dueWeek(now, config.ANALYTICS_TZ);
  if (!await reportEnabled(db)) return { week, reportsSent: 0 };
  const to = await reportRecipients(db, config);
  if (to.length === 0) return { week, reportsSent: 0 };
  const attempt = await claimWeeklyReport(db, week, now, LEASE_MS);
  if (attempt === null) return { week, reportsSent: 0 };
  try {
    await sendWeeklyReport(db, config, mailer, week, to, now, options);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const next = new Date(now.getTime() + backoffMs(attempt, options.random ?? Math.random));
    await markWeeklyReportFailed(db, week, attempt, now, next, message);
    throw new Error(`weekly report ${week}, attempt ${attempt}: ${message}`);
  }
  await markWeeklyReportSent(db, week, attempt, now, to.length);
  log.info("weekly report sent", { week, recipients: to.length });
  return { week, reportsSent: 1 };
}

/** The scheduled job (null without SMTP): every minute in every instance; one of them sends each week. */
export function weeklyReportJob(
  db: Db,
  config: Config,
  options: WeeklyReportOptions & { now?: () => Date; random?: () => number; every?: number } = {},
): JobSpec<WeeklyRunResult> | null {
  if (!reportAvailable(config)) return null;
  const mailer = reportMailer(config);
  const every = options.every ?? 60_000;
  return {
    name: "weekly-report",
    db,
    every,
    firstDelay: Math.min(every, 30_000),
    jitter: 0.2,
    // A quiet minute is worth no log line: one summary every 15 minutes (at once when a send fails).
    summaryEvery: Math.max(every, 15 * 60_000),
    now: options.now,
    random: options.random,
    run: (_q, now) => runWeeklyReport(db, config, mailer, now, options),
    close: () => mailer.close(),
  };
}

/** What the dashboard's switch shows. */
export interface WeeklyReportStatus {
  enabled: boolean;
  /** SMTP is configured: without it nothing is sent, whatever the switch says. */
  available: boolean;
  recipients: string[];
  timeZone: string;
  last: WeeklyReportRecord | null;
}

/** The switch, who receives the report, and the latest week's record. */
export async function weeklyReportStatus(db: Db, config: Config): Promise<WeeklyReportStatus> {
  const [enabled, recipients, last] = await Promise.all([
    reportEnabled(db),
    reportRecipients(db, config),
    latestWeeklyReport(db),
  ]);
  return { enabled, available: reportAvailable(config), recipients, timeZone: config.ANALYTICS_TZ, last };
}

/** Turns the report on or off. */
export async function setReportEnabled(db: Db, enabled: boolean, now: Date): Promise<void> {
  await setWeeklyReportSetting(db, enabled, now);
}
