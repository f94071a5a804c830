// Realistic, deterministic dashboard data (browser test, screenshots, benchmark): visits with a weekly
// rhythm, plan clicks, conversions and leads, written with one array insert per table.
import type { Queryable } from "../src/db/client.ts";
import { addDays } from "../src/shared/analytics.ts";

export interface SeedOptions {
  /** First local day (yyyy-MM-dd). */
  start: string;
  days: number;
  /** Total visits to spread over the days. */
  visits: number;
  /** UTC offset of the local days, e.g. "-03:00" (São Paulo). */
  offset?: string;
  seed?: number;
}

export interface SeedCounts {
  visits: number;
  clicks: number;
  conversions: number;
  leads: number;
}

function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SOURCES = ["google", "google", "facebook", "instagram", "linkedin", null, null, null];
const CAMPAIGNS = ["black-friday", "lancamento-chatbot", "remarketing", null, null];
const MEDIUMS: Record<string, string> = {
  google: "cpc",
  facebook: "social",
  instagram: "social",
  linkedin: "social",
};
const PAGES = [
  "/pt-br",
  "/pt-br",
  "/pt-br?utm_source=google&utm_campaign=black-friday",
  "/pt-br/clientes",
  "/pt-br/trello-whatsapp-integracao",
  "/pt-br/pipefy-whatsapp-integracao",
  "/en",
  "/es",
];
const FIRST = [
  "Ana",
  "Bruno",
  "Carla",
  "Diego",
  "Eduarda",
  "Felipe",
  "Gabriela",
  "Henrique",
  "Isabela",
  "João",
];
const LAST = ["Silva", "Souza", "Oliveira", "Santos", "Pereira", "Costa", "Almeida", "Ferreira", "Ribeiro"];
const PLANS = [["micro", "Micro"], ["pro", "Pro"], ["pro", "Pro"], ["premium", "Premium"], [
  "enterprise",
  "Especialista",
]];

/** Writes the data and returns how many rows of each kind it wrote. */
export async function seedDashboard(db: Queryable, options: SeedOptions): Promise<SeedCounts> {
  const rand = prng(options.seed ?? 42);
  const offset = options.offset ?? "-03:00";
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)];
  // Relative weight of each day: a weekly rhythm plus a slow wave.
  const weights = Array.from({ length: options.days }, (_, d) => {
    const weekday = new Date(addDays(options.start, d) + "T12:00:00Z").getUTCDay();
    return (weekday === 0 || weekday === 6 ? 0.6 : 1) * (1 + 0.3 * Math.sin(d / 2.7));
  });
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const visitors = Math.max(1, Math.round(options.visits / 2.2));

  const v = {
    at: [] as string[],
    key: [] as string[],
    page: [] as string[],
    src: [] as (string | null)[],
    camp: [] as (string | null)[],
    med: [] as (string | null)[],
  };
  const c = {
    at: [] as string[],
    src: [] as (string | null)[],
    camp: [] as (string | null)[],
    med: [] as (string | null)[],
    btn: [] as string[],
  };
  const k = {
    at: [] as string[],
    src: [] as (string | null)[],
    camp: [] as (string | null)[],
    med: [] as (string | null)[],
    btn: [] as string[],
  };
  const l = {
    at: [] as string[],
    name: [] as string[],
    email: [] as string[],
    wa: [] as string[],
    plan: [] as string[],
    label: [] as string[],
    src: [] as (string | null)[],
    camp: [] as (string | null)[],
    med: [] as (string | null)[],
  };

  for (let d = 0; d < options.days; d++) {
    const count = Math.round((options.visits * weights[d]) / totalWeight);
    const day = addDays(options.start, d);
    for (let i = 0; i < count; i++) {
      const seconds = Math.floor(rand() * 86_400);
      const hh = String(Math.floor(seconds / 3600)).padStart(2, "0");
      const mm = String(Math.floor(seconds / 60) % 60).padStart(2, "0");
      const ss = String(seconds % 60).padStart(2, "0");
      const at = `${day}T${hh}:${mm}:${ss}${offset}`;
      const src = pick(SOURCES);
      const camp = src ? pick(CAMPAIGNS) : null;
      const med = src ? MEDIUMS[src] : null;
      v.at.push(at);
      v.key.push("visitor-" + Math.floor(rand() * visitors));
      v.page.push(pick(PAGES));
      v.src.push(src);
      v.camp.push(camp);
      v.med.push(med);
      // Paid sources convert better; about 8% of visits click a plan, a third of clicks become leads.
      const clickChance = src === "google" ? 0.11 : src ? 0.07 : 0.05;
      if (rand() < clickChance) {
        const plan = pick(PLANS);
        const button = plan[0] === "enterprise" ? "pricing_specialist_enterprise" : `pricing_${plan[0]}_plan`;
        c.at.push(at);
        c.src.push(src);
        c.camp.push(camp);
        c.med.push(med);
        c.btn.push(button);
        if (rand() < (src === "google" ? 0.4 : 0.25)) {
          const later = new Date(new Date(at).getTime() + 90_000).toISOString();
          const first = pick(FIRST);
          const last = pick(LAST);
          k.at.push(later);
          k.src.push(src);
          k.camp.push(camp);
          k.med.push(med);
          k.btn.push(button);
          l.at.push(later);
          l.name.push(`${first} ${last}`);
          l.email.push(
            `${first}.${last}${l.at.length}@exemplo.com.br`.toLowerCase().normalize("NFD").replace(
              /[\u0300-\u036f]/g,
              "",
            ),
          );
          l.wa.push(
            `+55 (11) 9${String(10000000 + Math.floor(rand() * 89999999)).slice(0, 4)}-${
              String(1000 + Math.floor(rand() * 8999))
            }`,
          );
          l.plan.push(plan[0]);
          l.label.push(plan[1]);
          l.src.push(src);
          l.camp.push(camp);
          l.med.push(med);
        }
      }
    }
  }
  await db.query(
    `insert into visits (occurred_at, visitor_key, source, utm_source, utm_campaign, utm_medium)
     select * from unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])`,
    [v.at, v.key, v.page, v.src, v.camp, v.med],
  );
  for (const [table, rows] of [["clicks", c], ["conversions", k]] as const) {
    await db.query(
      `insert into ${table} (occurred_at, visitor_key, source, utm_source, utm_campaign, utm_medium)
       select at, 'seed', btn, s, ca, m from unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::text[])
         as t(at, btn, s, ca, m)`,
      [rows.at, rows.btn, rows.src, rows.camp, rows.med],
    );
  }
  await db.query(
    `insert into leads (submitted_at, name, email, whatsapp, plan, plan_label, utm_source, utm_campaign, utm_medium)
     select * from unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
       $8::text[], $9::text[])`,
    [l.at, l.name, l.email, l.wa, l.plan, l.label, l.src, l.camp, l.med],
  );
  return { visits: v.at.length, clicks: c.at.length, conversions: k.at.length, leads: l.at.length };
}
