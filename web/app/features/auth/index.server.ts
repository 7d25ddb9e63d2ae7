// What other features may use of auth on the server only: the visitor's auth session
// of a request and the calls made as them.
export { authContext, getAuth } from "./context";
export { formFailure, GONE_MESSAGE, memberCall, memberRead, text } from "./results.server";
export { createAuthSession, type AuthSession } from "./session.server";
