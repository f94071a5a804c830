import { type FormEvent, useState } from "react";
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
  const [sending, setSending] = useState(false);

  async function submit(event: FormEvent) {
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
    setSending(true);
    try {
      await sendJson(
        "POST",
        "/api/admin/change-password",
        { currentPassword: current, newPassword: next },
        passwordChangeAnswer,
      );
      toast({ title: "Senha alterada", description: "Sua senha foi alterada com sucesso!" });
      setCurrent("");
      setNext("");
      setConfirm("");
    } catch (error) {
      if (error instanceof SessionEnded) return; // already back at the login card, with its toast
      // The server's message (the answer's `message`), else the fixed text.
      toast({
        title: "Erro",
        description: errorText(error) ?? "Erro ao alterar senha",
        variant: "destructive",
      });
    } finally {
      setSending(false);
    }
  }

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
