import { type FormEvent, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { loginAnswer } from "../../shared/admin_schemas.ts";
import { errorText, sendJson } from "./api.ts";
import { useToast } from "./toast.tsx";
import { Field } from "./Field.tsx";

/** The sign-in card and its toasts (docs/PRODUCT.md, _Dashboard_). */
export function LoginCard({ onSignedIn }: { onSignedIn: (email: string) => void }) {
  const toast = useToast();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const signIn = useMutation({
    mutationFn: (credentials: { email: string; password: string }) =>
      sendJson("POST", "/api/admin/login", credentials, loginAnswer),
    onSuccess: (answer, credentials) => {
      toast({ title: "Login realizado", description: "Bem-vindo ao painel administrativo!" });
      onSignedIn(answer.email ?? credentials.email.toLowerCase());
    },
    // The server's message (the answer's `message`), else the fixed text.
    onError: (error) =>
      toast({
        title: "Erro no login",
        description: errorText(error) ?? "Credenciais inválidas",
        variant: "destructive",
      }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim() || !password) {
      toast({
        title: "Campos obrigatórios",
        description: "Por favor, preencha email e senha.",
        variant: "destructive",
      });
      return;
    }
    signIn.mutate({ email: email.trim(), password });
  }
  // Still "Entrando..." after a success, until the dashboard replaces this card.
  const sending = signIn.isPending || signIn.isSuccess;

  return (
    <main id="main" className="admin-shell">
      <form className="admin-card login-card" onSubmit={submit} noValidate aria-labelledby="login-title">
        <div className="login-mark" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor" strokeWidth="2">
            <rect x="4" y="11" width="16" height="10" rx="2" />
            <path d="M8 11V7a4 4 0 0 1 8 0v4" />
          </svg>
        </div>
        <h1 id="login-title">Área Administrativa</h1>
        <p className="admin-muted">Entre com suas credenciais para acessar</p>
        <Field
          label="E-mail"
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          onChange={setEmail}
          placeholder="admin@empresa.com"
        />
        <Field
          label="Senha"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          maxLength={128}
          onChange={setPassword}
        />
        <button type="submit" className="btn btn-primary admin-submit" disabled={sending}>
          {sending ? "Entrando..." : "Entrar"}
        </button>
      </form>
    </main>
  );
}
