// "Bookmark this page" on content pages. Signed-in members get a form that posts to
// /bookmarks: a fetcher with JavaScript (no page reload), a plain post without.
// Everyone else gets a link to sign in and come back.
import { Link, useFetcher, useLocation } from "react-router";
import { CsrfField } from "../../components/forms/Forms";
import { signInPath } from "../auth";
import type { BookmarkResult } from "./bookmark-actions.server";
import { bookmarkPath, type BookmarkState } from "./types";
import styles from "./BookmarkToggle.module.css";

export function BookmarkToggle({ state, title }: { state: BookmarkState | undefined; title: string }) {
  const location = useLocation();
  const fetcher = useFetcher<BookmarkResult>();
  const url = bookmarkPath(location.pathname);

  if (!state) return null;
  if (!state.signedIn) {
    return (
      <p className={styles.toggle}>
        <Link to={signInPath(url)}>Sign in to bookmark this page</Link>
      </p>
    );
  }

  // While the request runs, show the state it is asking for.
  const pending = fetcher.formData?.get("intent");
  const failed = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data : undefined;
  const id = fetcher.data?.ok && fetcher.data.id !== undefined && fetcher.state === "idle" ? fetcher.data.id : state.id;
  const bookmarked = pending ? pending === "add" : id !== null;
  const announcement = failed ? "" : fetcher.state === "idle" && fetcher.data?.ok ? fetcher.data.message : "";

  return (
    <fetcher.Form method="post" action="/bookmarks" className={styles.toggle}>
      <CsrfField />
      <input type="hidden" name="intent" value={bookmarked ? "remove" : "add"} />
      <input type="hidden" name="url" value={url} />
      <input type="hidden" name="title" value={title} />
      {bookmarked && id !== null ? <input type="hidden" name="id" value={id} /> : null}
      {bookmarked ? (
        <p className={styles.saved}>
          <span aria-hidden="true" className={styles.star}>
            ★
          </span>{" "}
          In your bookmarks
        </p>
      ) : null}
      <button type="submit" className={`button ${styles.button}`}>
        {bookmarked ? (
          "Remove bookmark"
        ) : (
          <>
            <span aria-hidden="true" className={styles.star}>
              ☆
            </span>
            Bookmark this page
          </>
        )}
      </button>
      <span role="status" className={failed ? styles.error : "visually-hidden"}>
        {failed ? failed.message : announcement}
      </span>
    </fetcher.Form>
  );
}
