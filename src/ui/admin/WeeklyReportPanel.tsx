import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { type WeeklyReportStatus, weeklyReportStatus } from "../../shared/admin_schemas.ts";
import { errorText, getJson, sendJson } from "./api.ts";
import { Card, LoadError } from "./Card.tsx";
import { formatInt, formatSubmitted, formatUpcoming } from "./format.ts";
import { useToast } from "./toast.tsx";

const PATH = "/api/admin/weekly-report";
const KEY = ["weekly-report"];

/** "semana 47 (2026-W47)" */
function weekName(week: string): string {
  return `semana ${Number(week.slice(6))} de ${week.slice(0, 4)}`;
}

function LastReport({ last }: { last: NonNullable<WeeklyReportStatus["last"]> }) {
  if (last.status === "sent") {
    return (
      <p data-testid="weekly-report-last">
        Último envio: {weekName(last.week)}, em {formatSubmitted(last.sentAt!)}
        {last.recipients !== null &&
          `, para ${formatInt(last.recipients)} ${last.recipients === 1 ? "destinatário" : "destinatários"}`}.
      </p>
    );
  }
  return (
    <p className="job-failure" data-testid="weekly-report-last">
      O relatório da {weekName(last.week)} ainda não saiu: {last.attempts > 0
        ? `${formatInt(last.attempts)} ${last.attempts === 1 ? "tentativa falhou" : "tentativas falharam"}` +
          ` (${last.lastError ?? "erro desconhecido"}); nova tentativa ${formatUpcoming(last.nextAttemptAt)}.`
        : `envio ${formatUpcoming(last.nextAttemptAt)}.`}
    </p>
  );
}

/** "Relatório semanal por e-mail": the switch, who receives it and how the latest week went. */
export function WeeklyReportPanel() {
  const toast = useToast();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: KEY, queryFn: () => getJson(PATH, weeklyReportStatus) });
  const [saving, setSaving] = useState(false);

  async function toggle(enabled: boolean) {
    setSaving(true);
    try {
      queryClient.setQueryData(KEY, await sendJson("PUT", PATH, { enabled }, weeklyReportStatus));
      toast({
        title: enabled ? "Relatório semanal ligado" : "Relatório semanal desligado",
        description: enabled
          ? "O próximo sai na segunda-feira às 08:00."
          : "Nenhum relatório será enviado até que você o ligue de novo.",
      });
    } catch (error) {
      toast({
        title: "Erro",
        description: errorText(error) ?? "Não foi possível mudar o relatório semanal.",
        variant: "destructive",
      });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card
      id="relatorio-semanal"
      title="Relatório semanal"
      subtitle="Os números da semana anterior por e-mail, comparados com a semana antes dela"
    >
      {status.isError
        ? <LoadError onRetry={() => status.refetch()} />
        : status.isPending
        ? <p className="card-loading" role="status">Carregando...</p>
        : (
          <div className="weekly-report">
            <button
              type="button"
              role="switch"
              aria-checked={status.data.enabled}
              className={`report-switch${status.data.enabled ? " on" : ""}`}
              disabled={saving}
              onClick={() => toggle(!status.data.enabled)}
              data-testid="weekly-report-switch"
            >
              <span className="report-switch-track" aria-hidden="true">
                <span className="report-switch-knob" />
              </span>
              <span>
                Relatório semanal por e-mail: <strong>{status.data.enabled ? "ligado" : "desligado"}</strong>
              </span>
            </button>
            <p className="admin-muted">
              Toda segunda-feira às 08:00 ({status.data.timeZone}): visitantes, visitas, cliques, leads, taxa
              de conversão, principais canais, origens e páginas, e leads não entregues. Nunca o e-mail ou o
              telefone de um lead.
            </p>
            {!status.data.available && (
              <p className="job-failure" role="note">
                O envio de e-mails não está configurado (SMTP_URL): nenhum relatório sai até que seja.
              </p>
            )}
            <p>
              {status.data.recipients.length
                ? `Enviado para: ${status.data.recipients.join(", ")}`
                : "Ninguém para receber: defina REPORT_TO ou o e-mail do administrador."}
            </p>
            {status.data.last && <LastReport last={status.data.last} />}
          </div>
        )}
    </Card>
  );
}
