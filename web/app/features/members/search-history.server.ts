// Recording a signed-in member's search in their history (docs/auth.md, Search
// history). Search pages call recordSearch from their loaders once the results are
// known; Go code can call members.Service.RecordSearch instead.
import type { RouterContextProvider } from "react-router";
import { CSRF_COOKIE } from "../auth/constants";
import { getAuth } from "../auth/context";
import { searchFromUrl } from "./searches";

/**
 * Adds the search at `url` (path and query) to the member's history, with a summary
 * such as "Smith, Kent, 1840–1850, 35 results". Does nothing for signed-out visitors
 * or searches without parameters; failures are logged, never thrown.
 *
 * A search page is a GET, so there is no form token: the session's own CSRF token
 * (its cookie) is sent. That is acceptable here only because the worst a forged
 * request could do is add a line to the member's own search history.
 */
export async function recordSearch(context: Readonly<RouterContextProvider>, url: string, summary = ""): Promise<void> {
  const auth = getAuth(context);
  if (!auth.state.loggedIn) return;
  const search = searchFromUrl(url);
  if (!search || !Object.keys(search.params).length) return;
  try {
    const response = await auth.request("POST", "/api/search-history", {
      json: { ...search, summary: summary.slice(0, 300) },
      csrf: auth.api.cookie(CSRF_COOKIE) ?? null,
    });
    if (response.status !== 201) auth.log.error(`[members] POST /api/search-history answered ${response.status}`);
  } catch (error) {
    auth.log.error(`[members] POST /api/search-history failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
