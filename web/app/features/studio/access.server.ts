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
