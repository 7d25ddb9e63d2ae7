// /user-account (sign-in required): profile and settings, bookmarks, reading lists,
// saved searches, search history, and the member's data. Every form
// posts here with an `intent`; features/members/account-actions.server.ts runs it.
import { data, Link } from "react-router";
import type { Route } from "./+types/user-account";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import {
  BookmarksSection,
  DataSection,
  ProfileSection,
  ReadingListsSection,
  SavedSearchesSection,
  SearchHistorySection,
} from "../features/members/AccountSections";
import { ACCOUNT_INTENTS, runAccountAction } from "../features/members/account-actions.server";
import { loadAccountArea } from "../features/members/api.server";
import { AlertControl } from "../features/newsletter/AlertControl";
import { loadAlerts, setAlert } from "../features/newsletter/api.server";
import { describeSearch } from "../features/research/search/query";
import styles from "../features/members/account.module.css";
import { getAuth } from "../features/auth/context";
import { privateMeta } from "../features/auth/meta";
import { hasScope } from "../features/auth/user";

// Sign-in required: the default, so no `handle.auth`.

export async function loader({ context }: Route.LoaderArgs) {
  const auth = getAuth(context);
  const user = auth.state.user!;
  const [area, alerts] = await Promise.all([loadAccountArea(context), loadAlerts(context)]);
  return { user, ...area, alerts };
}

export const meta = privateMeta("Your account");

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  // A saved search's email alert belongs to the newsletter (features/newsletter).
  const result = form.get("intent") === "alert" ? await setAlert(context, form) : await runAccountAction(context, form, ACCOUNT_INTENTS);
  return data(result, { status: result.ok ? 200 : 422 });
}

const SECTIONS = [
  ["profile", "Profile and settings"],
  ["bookmarks", "Bookmarks"],
  ["reading-lists", "Reading lists"],
  ["saved-searches", "Saved searches"],
  ["search-history", "Search history"],
  ["your-data", "Your data"],
] as const;

export default function UserAccount({ loaderData }: Route.ComponentProps) {
  const { user, bookmarks, readingLists, savedSearches, history, alerts } = loaderData;
  return (
    <div className={styles.page}>
      <h1>Your account</h1>
      <p>
        Signed in as <strong>{user.name}</strong> ({user.email}).
      </p>
      <nav aria-label="Sections of your account" className={styles.toc}>
        <ul>
          {SECTIONS.map(([id, label]) => (
            <li key={id}>
              <a href={`#${id}`}>{label}</a>
            </li>
          ))}
        </ul>
      </nav>
      <p>
        <Link to="/user-account/membership">Your membership</Link>: its status, receipts and renewal.
      </p>
      <p>
        <Link to="/user-account/newsletter">Your newsletters</Link>: choose which of the society's newsletters you get by email.
      </p>
      <p>
        <Link to="/user-account/bookings">Your event bookings</Link>: upcoming and past bookings, calendar files, cancelling.
      </p>
      {hasScope(user, "editor") || hasScope(user, "admin") ? (
        <>
          <p>
            <Link to="/studio">The studio</Link>: write and publish the site&rsquo;s pages and news, import records, scans and
            family trees (editors).
          </p>
          <p>
            <Link to="/admin/newsletter">Newsletter editions</Link>: write, preview and send the newsletter (editors).
          </p>
        </>
      ) : null}
      <p>
        <Link to="/user-account/trees">Your family trees</Link>: upload a family tree as a GEDCOM file and see whether it has been
        published.
      </p>
      <ProfileSection user={user} />
      <BookmarksSection bookmarks={bookmarks} lists={readingLists} />
      <ReadingListsSection lists={readingLists} />
      <SavedSearchesSection
        searches={savedSearches}
        describe={describeSearch}
        extra={(search) =>
          alerts === null ? (
            <p>Email alerts cannot be shown just now.</p>
          ) : (
            <AlertControl searchId={search.id} searchName={search.name} alert={alerts[search.id]} />
          )
        }
      />
      <SearchHistorySection history={history} describe={describeSearch} />
      <DataSection />
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
