import { HttpError } from "../../core/errors.ts";
import type { AdminErrorCode } from "../../shared/schemas.ts";

/** A refusal in the API's one error shape, `{ error: code }`; the dashboard words it (ui/admin/messages.ts). */
export function refused(status: 400 | 401 | 409, code: AdminErrorCode): HttpError {
  return new HttpError(status, code, { error: code });
}
