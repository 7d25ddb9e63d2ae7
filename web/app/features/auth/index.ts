// What other features may use of auth in the browser and on the server (docs/web.md,
// "Where things are"); the rest of features/auth is its own. Server-only parts are in
// index.server.ts.
export { signInPath } from "./access";
export { CSRF_COOKIE, CSRF_FIELD, FORM_EXPIRED_MESSAGE, SERVICE_FAILED_MESSAGE } from "./constants";
export { NewPasswordFields } from "./NewPasswordFields";
export { validRedirect } from "./redirect";
export { useAuth } from "./useAuth";
export { hasScope, type User } from "./user";
