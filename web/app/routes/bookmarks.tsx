// /bookmarks: the action behind the bookmark toggle on content pages. With
// JavaScript (a fetcher) it answers with data; a plain form post goes back to the
// page, or shows what went wrong here.
import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/bookmarks";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { toggleBookmark } from "../features/members/bookmark-actions.server";
import { privateMeta } from "../features/auth/meta";
import { safeRedirect } from "../features/auth/redirect";
import { text } from "../features/auth/results.server";
import { isDataRequest } from "../lib/data-request";

// Sign-in required (the default): no `handle.auth`.

/** Someone who signs in on the way to this address lands on their bookmarks. */
export function loader() {
  throw redirect("/user-account#bookmarks");
}

export const meta = privateMeta("Bookmarks");

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await toggleBookmark(context, form);
  const back = safeRedirect(text(form, "url"));
  if (isDataRequest(request)) return data({ ...result, back }, { status: result.ok ? 200 : 422 });
  if (result.ok) throw redirect(back);
  return data({ ...result, back }, { status: 422 });
}

export default function Bookmarks({ actionData }: Route.ComponentProps) {
  return (
    <div>
      <h1>Bookmarks</h1>
      <p role="alert">{actionData?.message ?? "Sorry, that did not work."}</p>
      <p>
        <Link to={actionData?.back ?? "/"}>Back to the page</Link> · <Link to="/user-account#bookmarks">Your bookmarks</Link>
      </p>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
