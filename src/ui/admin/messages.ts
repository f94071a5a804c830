// The dashboard's words for the API's error codes. The server answers codes only (`{ error: code }`,
// shared/schemas.ts); what the administrator reads is written here, in Portuguese, once.
import type { AdminErrorCode } from "../../shared/admin_schemas.ts";

export const ERROR_TEXTS: Record<AdminErrorCode | "rate_limited", string> = {
  bad_credentials: "E-mail ou senha inválidos.",
  // Only the sign-in and the password change are limited among the administrator's calls.
  rate_limited: "Muitas tentativas de login. Aguarde alguns minutos e tente novamente.",
  wrong_current_password: "Senha atual incorreta.",
  password_same_as_current: "A nova senha deve ser diferente da atual.",
  password_too_common: "Essa senha está entre as mais usadas. Escolha outra.",
  nothing_to_resend: "Nada a reenviar: já entregue, em envio ou inexistente.",
};

/** The text for an error code, if the dashboard has one (the caller then shows its own fallback). */
export function textOf(code: string | undefined): string | undefined {
  return code && Object.hasOwn(ERROR_TEXTS, code) ? ERROR_TEXTS[code as keyof typeof ERROR_TEXTS] : undefined;
}
