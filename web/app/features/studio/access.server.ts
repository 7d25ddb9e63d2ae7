// Who may use the studio: editors and admins (the layout refuses anyone else); admins
// also change the document types' models.
import { hasScope } from "../auth";
import { getAuth } from "../auth/index.server";

type Context = Parameters<typeof getAuth>[0];

export function isStaff(context: Context): boolean {
  const user = getAuth(context).state.user;
  return hasScope(user, "editor") || hasScope(user, "admin");
}

export function isAdmin(context: Context): boolean {
  return hasScope(getAuth(context).state.user, "admin");
}

/**
 * Refuses anyone not staff with a 403 before a screen's loader or action calls the API:
 * the layout's loader runs beside its children's, not before them, nor before an action.
 */
export function requireStaff(context: Context): void {
  if (!isStaff(context)) throw new Response("The studio is for the society's editors and administrators.", { status: 403, statusText: "Not allowed" });
}
