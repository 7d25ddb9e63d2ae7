// Recording a signed-in member's search in their history (docs/auth.md, Search
// history). Search pages call recordSearch from their loaders once the results are
// known; Go code can call members.Service.RecordSearch instead.
import type { RouterContextProvider } from "react-router";
import { callApi, failureText } from "../../lib/api.server";
import { CSRF_COOKIE } from "../auth";
import { getAuth } from "../auth/index.server";
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
  const done = await callApi(auth, "POST", "/api/search-history", {
    json: { ...search, summary: summary.slice(0, 300) },
    csrf: auth.api.cookie(CSRF_COOKIE) ?? null,
    expect: [201],
  });
  if (!done.ok) auth.log.error(`[members] ${failureText("POST /api/search-history", done)}`);
}
