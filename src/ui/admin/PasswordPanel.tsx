import { type FormEvent, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { MIN_PASSWORD_LENGTH, passwordChangeAnswer } from "../../shared/admin_schemas.ts";
import { errorText, sendJson, SessionEnded } from "./api.ts";
import { useToast } from "./toast.tsx";
import { Field } from "./Field.tsx";

/**
 * The password-change panel: after a success the fields clear and the panel stays open (docs/PRODUCT.md,
 * _Dashboard_).
 */
export function PasswordPanel() {
  const toast = useToast();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const change = useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) =>
      sendJson("POST", "/api/admin/change-password", body, passwordChangeAnswer),
    onSuccess: () => {
      toast({ title: "Senha alterada", description: "Sua senha foi alterada com sucesso!" });
      setCurrent("");
      setNext("");
      setConfirm("");
    },
    onError: (error) => {
      if (error instanceof SessionEnded) return; // the query client took it back to the login card
      // The server's message (the answer's `message`), else the fixed text.
      toast({
        title: "Erro",
        description: errorText(error) ?? "Erro ao alterar senha",
        variant: "destructive",
      });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!current || !next || !confirm) {
      toast({ title: "Erro", description: "Por favor, preencha todos os campos.", variant: "destructive" });
      return;
    }
    if (next !== confirm) {
      toast({
        title: "Senhas não coincidem",
        description: "A nova senha e confirmação devem ser iguais.",
        variant: "destructive",
      });
      return;
    }
    if (next.length < MIN_PASSWORD_LENGTH) {
      toast({
        title: "Senha muito curta",
        description: "A nova senha deve ter pelo menos 8 caracteres.",
        variant: "destructive",
      });
      return;
    }
    change.mutate({ currentPassword: current, newPassword: next });
  }
  const sending = change.isPending;

  return (
    <section id="password-panel" className="admin-card password-panel" aria-labelledby="password-title">
      <h2 id="password-title">Alterar Senha</h2>
      <form onSubmit={submit} noValidate className="password-form">
        <Field
          label="Senha atual"
          type="password"
          autoComplete="current-password"
          value={current}
          maxLength={128}
          onChange={setCurrent}
        />
        <Field
          label="Nova senha"
          type="password"
          autoComplete="new-password"
          value={next}
          maxLength={128}
          onChange={setNext}
        />
        <Field
          label="Confirmar nova senha"
          type="password"
          autoComplete="new-password"
          value={confirm}
          maxLength={128}
          onChange={setConfirm}
        />
        <button type="submit" className="btn btn-primary" disabled={sending}>
          {sending ? "Alterando..." : "Salvar nova senha"}
        </button>
      </form>
    </section>
  );
}
