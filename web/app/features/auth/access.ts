// Page access levels (seed-spec §2, §6): a route declares its level in its `handle`:
//   export const handle = { auth: false };    public
//   export const handle = { auth: "guest" };  only for signed-out visitors
//   (nothing)                                 sign-in required — the default
// The deepest matched route that declares `auth` decides. The root middleware
// enforces the level on the server before any loader or action runs.
import { HOME_PATH, REDIRECT_PARAM, SIGN_IN_PATH } from "./constants";
import { validRedirect } from "./redirect";

export type AccessLevel = "public" | "guest" | "required";

export interface AuthHandle {
  /** false: public; "guest": signed-out visitors only; true or absent: sign-in required. */
  auth?: false | "guest" | true;
}

/** The access level of a page from the handles of its matched routes (root first). */
export function accessLevelOf(handles: readonly unknown[]): AccessLevel {
  for (let i = handles.length - 1; i >= 0; i--) {
    const handle = handles[i];
    if (!handle || typeof handle !== "object" || !("auth" in handle)) continue;
    const auth = (handle as AuthHandle).auth;
    if (auth === false) return "public";
    if (auth === "guest") return "guest";
    if (auth === true) return "required";
  }
  return "required";
}

/** The sign-in page with the email address filled in (when there is one). */
export function signInAsPath(email: string): string {
  return email ? `${SIGN_IN_PATH}?${new URLSearchParams({ email })}` : SIGN_IN_PATH;
}

/** The sign-in page, carrying the wanted path when it is a valid place to return to. */
export function signInPath(wanted?: string | null): string {
  if (!wanted || wanted === HOME_PATH || !validRedirect(wanted)) return SIGN_IN_PATH;
  return `${SIGN_IN_PATH}?${new URLSearchParams({ [REDIRECT_PARAM]: wanted })}`;
}

/**
 * Where a request must go instead, or null when it may proceed: signed-out visitors
 * of protected pages go to sign-in with the wanted path; signed-in users on
 * guest-only pages go home.
 */
export function accessRedirect(level: AccessLevel, loggedIn: boolean, wanted: string): string | null {
  if (level === "required" && !loggedIn) return signInPath(wanted);
  if (level === "guest" && loggedIn) return HOME_PATH;
  return null;
}
