// /saved-searches: the action behind "Save this search" on search pages
// (features/members/SaveSearchForm.tsx). With JavaScript a fetcher gets the result;
// a plain form post gets this page with it.
import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/saved-searches";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { SAVED_SEARCH_INTENTS, runAccountAction } from "../features/members/account-actions.server";
import { privateMeta } from "../features/auth/meta";
import { safeRedirect } from "../features/auth/redirect";
import { text } from "../features/auth/results.server";

// Sign-in required (the default): no `handle.auth`.

export function loader() {
  throw redirect("/user-account#saved-searches");
}

export const meta = privateMeta("Save a search");

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await runAccountAction(context, form, SAVED_SEARCH_INTENTS);
  return data({ ...result, back: safeRedirect(text(form, "url")) }, { status: result.ok ? 200 : 422 });
}

export default function SavedSearches({ actionData }: Route.ComponentProps) {
  const ok = actionData?.ok;
  return (
    <div>
      <h1>{ok ? "Search saved" : "The search was not saved"}</h1>
      <p role={ok ? "status" : "alert"}>
        {actionData?.message ?? Object.values(actionData?.errors ?? {})[0]?.[0] ?? "Sorry, that did not work."}
      </p>
      <p>
        <Link to={actionData?.back ?? "/"}>Back to the search</Link> · <Link to="/user-account#saved-searches">Your saved searches</Link>
      </p>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
