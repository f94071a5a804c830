import { type FormEvent, useState } from "react";
import { type ActionResult, postJson, serverMessage } from "./api.ts";
import { useToast } from "./toast.tsx";

const MIN_LENGTH = 8;

/** The password-change panel: after a success the fields clear and the panel stays open (spec section 4). */
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
    if (next.length < MIN_LENGTH) {
      toast({
        title: "Senha muito curta",
        description: "A nova senha deve ter pelo menos 8 caracteres.",
        variant: "destructive",
      });
      return;
    }
    setSending(true);
    try {
      await postJson<ActionResult>("/api/admin/change-password", {
        currentPassword: current,
        newPassword: next,
      });
      toast({ title: "Senha alterada", description: "Sua senha foi alterada com sucesso!" });
      setCurrent("");
      setNext("");
      setConfirm("");
    } catch (error) {
      toast({
        title: "Erro",
        description: serverMessage(error) ?? "Erro ao alterar senha",
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
        <label className="admin-field">
          <span>Senha atual</span>
          <input
            type="password"
            autoComplete="current-password"
            value={current}
            maxLength={128}
            onChange={(e) => setCurrent(e.target.value)}
          />
        </label>
        <label className="admin-field">
          <span>Nova senha</span>
          <input
            type="password"
            autoComplete="new-password"
            value={next}
            maxLength={128}
            onChange={(e) => setNext(e.target.value)}
          />
        </label>
        <label className="admin-field">
          <span>Confirmar nova senha</span>
          <input
            type="password"
            autoComplete="new-password"
            value={confirm}
            maxLength={128}
            onChange={(e) => setConfirm(e.target.value)}
          />
        </label>
        <button type="submit" className="btn btn-primary" disabled={sending}>
          {sending ? "Alterando..." : "Salvar nova senha"}
        </button>
      </form>
    </section>
  );
}
