// The dashboard's words for the API's error codes. The server answers codes (`{ error: code }`,
// shared/schemas.ts) and, for a sign-in and a password change, the text itself in `message`; every text is
// written once, in Portuguese, in shared/admin_messages.ts.
export { ERROR_TEXTS, textOf } from "../../shared/admin_messages.ts";
