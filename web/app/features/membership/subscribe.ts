// Where the paywall's "Join or renew" goes: /subscribe, carrying the page to come back
// to once the visitor has joined (the seed's redirect rule, features/auth/redirect.ts).
import { validRedirect } from "../auth";

export const SUBSCRIBE_PATH = "/subscribe";
export const RETURN_PARAM = "return_to";
export const JOIN_OR_RENEW = "Join or renew";

/** `path` (/subscribe or a plan's page) with ?return_to= when returnTo is a valid local path. */
export function subscribePath(returnTo?: string | null, path = SUBSCRIBE_PATH): string {
  return returnTo && validRedirect(returnTo) ? `${path}?${new URLSearchParams({ [RETURN_PARAM]: returnTo })}` : path;
}

/** The return path of a request's ?return_to=, or null when absent or not a valid local path. */
export function returnToOf(url: URL): string | null {
  const v = url.searchParams.get(RETURN_PARAM);
  return v && validRedirect(v) ? v : null;
}
