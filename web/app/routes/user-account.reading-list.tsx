// /user-account/reading-lists/:id (sign-in required): one reading list. Another
// member's list answers 404 from the API, and so here.
import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/user-account.reading-list";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { READING_LIST_INTENTS, runAccountAction } from "../features/members/account-actions.server";
import { loadBookmarks, loadReadingList } from "../features/members/api.server";
import { ReadingListEditor } from "../features/members/ReadingListEditor";
import styles from "../features/members/account.module.css";
import { privateMeta } from "../features/auth/meta";

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const [list, bookmarks] = await Promise.all([loadReadingList(context, params.id), loadBookmarks(context)]);
  if (!list) throw new Response("This page could not be found", { status: 404, statusText: "Not Found" });
  return { list, bookmarks, confirmDelete: url.searchParams.get("delete") === "confirm" };
}

export const meta = privateMeta("Reading list");

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await runAccountAction(context, form, READING_LIST_INTENTS);
  // A deleted list has no page any more: back to the account's lists.
  if (result.ok && result.intent === "list-delete") throw redirect("/user-account#reading-lists");
  return data(result, { status: result.ok ? 200 : 422 });
}

export default function ReadingListPage({ loaderData }: Route.ComponentProps) {
  const { list, bookmarks, confirmDelete } = loaderData;
  return (
    <div className={styles.page}>
      <Breadcrumbs
        items={[
          { to: "/user-account", label: "Your account" },
          { to: "/user-account#reading-lists", label: "Reading lists" },
        ]}
      />
      <h1>{list.name}</h1>
      <p>
        {list.items.length === 1 ? "1 page" : `${list.items.length} pages`}. <Link to="/user-account#reading-lists">All your reading lists</Link>
      </p>
      <ReadingListEditor list={list} bookmarks={bookmarks} confirmDelete={confirmDelete} />
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
