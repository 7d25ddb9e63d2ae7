// The signed-in user as the Go API returns it (docs/auth.md, "The user object"), and
// the auth state every page can read (seed-spec §4).
import type { StrategyName } from "./constants";

export interface User {
  id: number;
  name: string;
  email: string;
  email_verified_at: string | null;
  role: string;
  /** The role and every role below it; seed-spec §6 also allows a map. */
  scope: string[] | Record<string, unknown>;
  has_password: boolean;
  created_at?: string;
  updated_at?: string;
}

export interface AuthState {
  loggedIn: boolean;
  user: User | null;
  /** True while a sign-in or sign-out is under way (in the browser). */
  busy: boolean;
  strategy: StrategyName;
}

export function loggedOutState(strategy: StrategyName): AuthState {
  return { loggedIn: false, user: null, busy: false, strategy };
}

/** Whether the user holds a scope (an array of names, or a map with truthy values). */
export function hasScope(user: User | null | undefined, scope: string): boolean {
  if (!user?.scope) return false;
  if (Array.isArray(user.scope)) return user.scope.includes(scope);
  return Boolean(user.scope[scope]);
}


/** What the browser gets of the auth state: the user without timestamps. */
export function publicAuthState(state: AuthState): AuthState {
  if (!state.user) return state;
  const { id, name, email, email_verified_at, role, scope, has_password } = state.user;
  return { ...state, user: { id, name, email, email_verified_at, role, scope, has_password } };
}
