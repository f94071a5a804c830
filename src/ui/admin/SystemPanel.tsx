import { useQuery } from "@tanstack/react-query";
import { type JobStatus, systemHealth } from "../../shared/admin_schemas.ts";
import { getJson } from "./api.ts";
import { Card, LoadError } from "./Card.tsx";
import { DESTINATION_NAMES } from "./deliveries.ts";
import { formatInt, formatSubmitted } from "./format.ts";

/** The version, the background jobs' latest runs and the failing lead destinations (one request). */
export function useSystemHealth() {
  return useQuery({ queryKey: ["system"], queryFn: () => getJson("/api/admin/system", systemHealth) });
}

/** The jobs' names, in the order the card shows them (any other job after them, by name). */
const JOB_NAMES: Record<string, string> = {
  "lead-delivery": "Entrega de leads",
  "meta-delivery": "Eventos para a Meta",
  "rollups": "Consolidação do painel",
  "purge-raw-events": "Limpeza de eventos antigos",
  "purge-sessions": "Limpeza de sessões expiradas",
  "purge-counters": "Limpeza de contadores",
  "destroy-salts": "Destruição de chaves mensais",
  "weekly-report": "Relatório semanal por e-mail",
};
const ORDER = Object.keys(JOB_NAMES);
const rank = (name: string) => ORDER.includes(name) ? ORDER.indexOf(name) : ORDER.length;

/** What each count of a job's result means, in the order shown; zero counts and other keys are left out. */
const RESULT_NAMES: Record<string, [string, string]> = {
  delivered: ["lead entregue", "leads entregues"],
  retrying: ["nova tentativa", "novas tentativas"],
  failed: ["falha definitiva", "falhas definitivas"],
  sent: ["evento enviado", "eventos enviados"],
  days: ["dia consolidado", "dias consolidados"],
  rolledUpDays: ["dia consolidado", "dias consolidados"],
  visits: ["visita apagada", "visitas apagadas"],
  clicks: ["clique apagado", "cliques apagados"],
  conversions: ["conversão apagada", "conversões apagadas"],
  sessions: ["sessão apagada", "sessões apagadas"],
  rateLimitWindows: ["contador apagado", "contadores apagados"],
  loginFailures: ["falha de login apagada", "falhas de login apagadas"],
  salts: ["chave destruída", "chaves destruídas"],
  reportsSent: ["relatório enviado", "relatórios enviados"],
};

function resultText(job: JobStatus): string {
  // In this table's order: the database keeps a record's keys in an order of its own.
  const parts = Object.entries(RESULT_NAMES).flatMap(([key, names]) => {
    const value = job.result[key];
    if (typeof value !== "number" || value === 0) return [];
    return [`${formatInt(value)} ${value === 1 ? names[0] : names[1]}`];
  });
  return parts.length ? parts.join(", ") : "nada a fazer";
}

function durationText(job: JobStatus): string {
  if (job.runs <= 1) return `${formatInt(job.durationMs)} ms`;
  return `${formatInt(job.runs)} execuções desde ${formatSubmitted(job.startedAt)}, média de ${
    formatInt(Math.round(job.durationMs / job.runs))
  } ms`;
}

function JobItem({ job }: { job: JobStatus }) {
  const [state, label] = job.overdue
    ? ["late", "Atrasada"]
    : job.status === "failed"
    ? ["failed", "Falhou"]
    : ["ok", "OK"];
  return (
    <li className={`job job-${state}`} data-testid={`job-${job.name}`}>
      <p className="job-head">
        <span className="job-name">{JOB_NAMES[job.name] ?? job.name}</span>
        <span className="job-status">{label}</span>
      </p>
      <p>Última execução: {formatSubmitted(job.finishedAt)} · {durationText(job)}</p>
      <p>
        {job.status === "failed"
          ? `Erro: ${job.lastError ?? "desconhecido"}`
          : `Resultado: ${resultText(job)}`}
      </p>
      {job.overdue && (
        <p className="job-failure">
          Nenhuma execução registrada desde então: o servidor que a roda parou ou está sobrecarregado.
        </p>
      )}
      {job.status === "done" && job.lastFailureAt && (
        <p className="admin-muted">
          Última falha: {formatSubmitted(job.lastFailureAt)} — {job.lastError}
        </p>
      )}
    </li>
  );
}

/** "Saúde do sistema": what the background jobs did last, and whether lead deliveries are failing. */
export function SystemPanel() {
  const system = useSystemHealth();
  return (
    <Card id="saude" title="Saúde do sistema" subtitle="O que as tarefas automáticas fizeram por último">
      {system.isError
        ? <LoadError onRetry={() => system.refetch()} />
        : system.isPending
        ? <p className="card-loading" role="status">Carregando tarefas...</p>
        : (
          <>
            {system.data.failingDestinations.length > 0 && (
              <div className="system-alert" role="alert">
                {system.data.failingDestinations.map((d) => (
                  <p key={d.destination}>
                    Entregas para {DESTINATION_NAMES[d.destination]} falhando desde{" "}
                    {formatSubmitted(d.since)}.
                  </p>
                ))}
              </div>
            )}
            {system.data.jobs.length === 0
              ? (
                <p className="card-empty">
                  Nenhuma tarefa rodou ainda: a primeira roda alguns segundos depois que o servidor inicia.
                </p>
              )
              : (
                <ul className="jobs">
                  {[...system.data.jobs].sort((a, b) => rank(a.name) - rank(b.name)).map((job) => (
                    <JobItem key={job.name} job={job} />
                  ))}
                </ul>
              )}
          </>
        )}
    </Card>
  );
}

/** The dashboard's footer: which build this is (the release tag or commit). */
export function VersionFooter() {
  const system = useSystemHealth();
  return (
    <footer className="admin-footer">
      <p className="admin-muted" data-testid="app-version">
        ZapFlow · versão {system.data?.version ?? "…"}
      </p>
    </footer>
  );
}
