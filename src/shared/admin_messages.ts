// The administrator's words for the API's outcomes, in Portuguese, once: the server puts them in the
// `message` of a sign-in's and a password change's answer (beside `success`), and the dashboard shows them
// (or, for the other calls, words an error code with them).
import type { AdminErrorCode } from "./admin_schemas.ts";

/** `message` of a successful sign-in and password change. */
export const SUCCESS_TEXTS = {
  login: "Login realizado com sucesso.",
  passwordChanged: "Senha alterada com sucesso.",
} as const;

/** The codes only the administrator's routes answer, and the one limit they share with the public API. */
export const ERROR_TEXTS: Record<AdminErrorCode | "rate_limited", string> = {
  bad_credentials: "E-mail ou senha inválidos.",
  // Only the sign-in and the password change are limited among the administrator's calls.
  rate_limited: "Muitas tentativas de login. Aguarde alguns minutos e tente novamente.",
  wrong_current_password: "Senha atual incorreta.",
  password_same_as_current: "A nova senha deve ser diferente da atual.",
  password_too_common: "Essa senha está entre as mais usadas. Escolha outra.",
  password_too_weak:
    "Essa senha é fácil de adivinhar (palavra, nome, data ou sequência comum). Junte palavras sem relação entre si ou misture letras, números e símbolos.",
  password_blank: "A nova senha não pode ser só espaços.",
  password_too_short: "A nova senha deve ter pelo menos 8 caracteres.",
  password_too_long: "A nova senha deve ter no máximo 128 caracteres.",
  nothing_to_resend: "Nada a reenviar: já entregue, em envio ou inexistente.",
};

/** The codes every endpoint may answer (core/errors.ts, server/error_handler.ts). */
const GENERAL_TEXTS: Record<string, string> = {
  validation: "Verifique os dados enviados.",
  unauthorized: "Sessão encerrada. Entre novamente.",
  forbidden: "Requisição recusada: use o formulário desta página.",
  payload_too_large: "Os dados enviados são grandes demais.",
  unsupported_media_type: "Formato de dados não aceito.",
  bad_request: "Requisição inválida.",
  method_not_allowed: "Requisição inválida.",
  not_found: "Endereço não encontrado.",
  client_aborted: "A requisição foi interrompida.",
  request_timeout: "Os dados demoraram demais para chegar. Tente novamente.",
  database_unavailable: "Serviço indisponível no momento. Tente novamente em instantes.",
  service_unavailable: "Serviço indisponível no momento. Tente novamente em instantes.",
  internal: "Erro interno do servidor. Tente novamente em instantes.",
};

/** How a refused field is named to the administrator. */
const FIELD_NAMES: Record<string, string> = {
  email: "e-mail",
  password: "senha",
  currentPassword: "senha atual",
  newPassword: "nova senha",
  body: "corpo da requisição",
};

/** The dashboard's text for an administrator's error code, if it has one (the caller then shows its own). */
export function textOf(code: string | undefined): string | undefined {
  return code && Object.hasOwn(ERROR_TEXTS, code) ? ERROR_TEXTS[code as keyof typeof ERROR_TEXTS] : undefined;
}

function waitText(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? "1 segundo" : `${seconds} segundos`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "1 minuto" : `${minutes} minutos`;
}

function listText(items: string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} e ${items.at(-1)}`;
}

/** The refusal as the API sends it: its code and what the code carries. */
export interface Refusal {
  error?: unknown;
  fields?: unknown;
  retryAfter?: unknown;
}

/**
 * The `message` of a refused sign-in or password change: the code's text, naming the fields of a
 * validation error and the wait of a rate limit.
 */
export function refusalMessage(body: Refusal): string {
  const code = typeof body.error === "string" ? body.error : undefined;
  if (code === "validation" && body.fields && typeof body.fields === "object") {
    const names = Object.keys(body.fields).map((f) => FIELD_NAMES[f] ?? f);
    if (names.length) return `Verifique ${names.length === 1 ? "o campo" : "os campos"}: ${listText(names)}.`;
  }
  if (code === "rate_limited" && typeof body.retryAfter === "number" && body.retryAfter > 0) {
    return `Muitas tentativas. Aguarde ${waitText(Math.ceil(body.retryAfter))} e tente novamente.`;
  }
  return textOf(code) ?? (code && Object.hasOwn(GENERAL_TEXTS, code) ? GENERAL_TEXTS[code] : undefined) ??
    "Não foi possível concluir a operação. Tente novamente.";
}
