// The auth session of the current request, in React Router's router context. The
// root middleware sets it; loaders and actions read it with getAuth(context).
import { createContext, type RouterContextProvider } from "react-router";
import type { AuthSession } from "./session.server";

export const authContext = createContext<AuthSession | null>(null);

export function getAuth(context: Readonly<RouterContextProvider>): AuthSession {
  const auth = context.get(authContext);
  if (!auth) throw new Error("auth: the root middleware has not run for this request");
  return auth;
}
