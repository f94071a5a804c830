import { type FormEvent, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { erasure, type PersonLead, personLeads } from "../../shared/admin_schemas.ts";
import { isLeadEmail } from "../../shared/email.ts";
import { ApiError, getJson, sendJson, SessionEnded } from "./api.ts";
import { Card } from "./Card.tsx";
import { formatSubmitted, visibleText } from "./format.ts";
import { useToast } from "./toast.tsx";

type Kind = "email" | "phone";

interface Found {
  kind: Kind;
  value: string;
  leads: PersonLead[];
}

const LABELS: Record<
  Kind,
  { field: string; placeholder: string; invalid: string; inputMode: "email" | "tel" }
> = {
  email: {
    field: "E-mail da pessoa",
    placeholder: "nome@empresa.com.br",
    invalid: "Informe um e-mail válido.",
    inputMode: "email",
  },
  phone: {
    field: "Telefone (WhatsApp) da pessoa",
    placeholder: "(11) 98765-4321",
    invalid: "Informe o telefone com DDD (pelo menos 8 dígitos).",
    inputMode: "tel",
  },
};

function subjectQuery(kind: Kind, value: string): string {
  return new URLSearchParams({ [kind]: value }).toString();
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * LGPD requests (art. 18): find everything a person left through the pricing form by e-mail or phone,
 * download it as JSON, or erase it for good after an explicit confirmation.
 */
export function LgpdPanel() {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<Kind>("email");
  const [value, setValue] = useState("");
  const [found, setFound] = useState<Found | null>(null);
  const [confirming, setConfirming] = useState(false);

  // The lookup is asked for like a write (a mutation, not a query): what it finds is personal data, kept in
  // this panel's state only, never in the query cache where a refetch or another card would reach it.
  const lookup = useMutation({
    gcTime: 0,
    mutationFn: (subject: { kind: Kind; value: string }) =>
      getJson(`/api/admin/lgpd/leads?${subjectQuery(subject.kind, subject.value)}`, personLeads),
    onMutate: () => setConfirming(false),
    onSuccess: (data, subject) => setFound({ ...subject, leads: data.leads }),
    onError: (error, subject) => {
      if (error instanceof SessionEnded) return; // the query client took it back to the login card
      if (error instanceof ApiError && error.status === 400) {
        toast({
          title: "Dados inválidos",
          description: LABELS[subject.kind].invalid,
          variant: "destructive",
        });
        return;
      }
      toast({ title: "Erro", description: "Não foi possível buscar os dados.", variant: "destructive" });
    },
  });

  const erase = useMutation({
    mutationFn: (ids: number[]) => sendJson("DELETE", "/api/admin/lgpd/leads", { ids }, erasure),
    onSuccess: async ({ deleted }) => {
      toast({
        title: "Dados excluídos",
        description: `${plural(deleted.leads, "lead excluído", "leads excluídos")} definitivamente.`,
      });
      setFound((shown) => shown && { ...shown, leads: [] });
      setConfirming(false);
      await queryClient.invalidateQueries(); // every card reads again before the panel is free
    },
    onError: (error) => {
      if (error instanceof SessionEnded) return;
      toast({ title: "Erro", description: "Não foi possível excluir os dados.", variant: "destructive" });
    },
  });
  const busy = lookup.isPending || erase.isPending;

  function search(event: FormEvent) {
    event.preventDefault();
    const typed = value.trim();
    const plausible = kind === "email"
      ? isLeadEmail(typed) // the lead form's own rule: any address a lead left can be looked up
      : (typed.match(/\d/g) ?? []).length >= 8;
    if (!plausible) {
      toast({ title: "Erro", description: LABELS[kind].invalid, variant: "destructive" });
      return;
    }
    lookup.mutate({ kind, value: typed });
  }

  function confirmErase() {
    if (found?.leads.length) erase.mutate(found.leads.map((l) => l.id));
  }

  const label = LABELS[kind];
  return (
    <Card
      id="lgpd"
      title="Dados pessoais (LGPD)"
      subtitle="Atenda a pedidos de titulares: encontre, exporte ou exclua os leads de uma pessoa."
    >
      <form className="lgpd-form" onSubmit={search} noValidate>
        <fieldset className="lgpd-kind">
          <legend>Buscar por</legend>
          <div className="lgpd-options">
            {(["email", "phone"] as const).map((k) => (
              <label key={k}>
                <input
                  type="radio"
                  name="lgpd-kind"
                  value={k}
                  checked={kind === k}
                  onChange={() => {
                    setKind(k);
                    setValue("");
                  }}
                />
                {k === "email" ? "E-mail" : "Telefone"}
              </label>
            ))}
          </div>
        </fieldset>
        <label className="admin-field compact lgpd-value">
          <span>{label.field}</span>
          <input
            type={kind === "email" ? "email" : "tel"}
            inputMode={label.inputMode}
            autoComplete="off"
            placeholder={label.placeholder}
            maxLength={kind === "email" ? 254 : 40}
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        </label>
        <button type="submit" className="btn btn-primary btn-small" disabled={busy}>
          {busy && !confirming ? "Buscando..." : "Buscar"}
        </button>
      </form>

      {found && (
        <div className="lgpd-result" aria-live="polite">
          {found.leads.length === 0
            ? (
              <p className="card-empty">
                Nenhum lead encontrado para <strong>{found.value}</strong>.
              </p>
            )
            : (
              <>
                <p className="lgpd-count">
                  {plural(found.leads.length, "lead encontrado", "leads encontrados")} para{" "}
                  <strong>{found.value}</strong>
                </p>
                <ul className="lead-list" aria-label="Leads da pessoa">
                  {found.leads.map((lead) => (
                    <li className="lead" key={lead.id}>
                      <div className="lead-head">
                        <p className="lead-name">{visibleText(lead.name)}</p>
                        <span className="admin-muted">{visibleText(lead.planLabel || lead.plan)}</span>
                      </div>
                      <p className="lead-line">{visibleText(lead.email)}</p>
                      <p className="lead-line">{visibleText(lead.whatsapp)}</p>
                      <p className="lead-date admin-muted">{formatSubmitted(lead.submittedAt)}</p>
                    </li>
                  ))}
                </ul>
                <div className="lgpd-actions">
                  <a
                    className="btn btn-outline btn-small"
                    href={`/api/admin/lgpd/export?${subjectQuery(found.kind, found.value)}`}
                    download
                  >
                    Exportar JSON
                  </a>
                  {!confirming && (
                    <button
                      type="button"
                      className="btn btn-small lgpd-danger"
                      onClick={() => setConfirming(true)}
                    >
                      Excluir definitivamente
                    </button>
                  )}
                </div>
                {confirming && (
                  <div className="lgpd-confirm" role="alertdialog" aria-labelledby="lgpd-confirm-text">
                    <p id="lgpd-confirm-text">
                      Excluir {plural(found.leads.length, "lead", "leads")} de <strong>{found.value}</strong>
                      {" "}
                      e os eventos do Meta ligados a eles? Esta ação não pode ser desfeita.
                    </p>
                    <div className="lgpd-actions">
                      <button
                        type="button"
                        className="btn btn-small lgpd-danger"
                        onClick={confirmErase}
                        disabled={busy}
                      >
                        {busy ? "Excluindo..." : "Confirmar exclusão"}
                      </button>
                      <button
                        type="button"
                        className="btn btn-outline btn-small"
                        onClick={() =>
                          setConfirming(false)}
                        disabled={busy}
                      >
                        Cancelar
                      </button>
                    </div>
                  </div>
                )}
              </>
            )}
        </div>
      )}
    </Card>
  );
}
