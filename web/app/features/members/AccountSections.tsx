// The sections of /user-account: profile and settings, bookmarks, reading lists,
// saved searches, search history, and the member's data.
import type { ReactNode } from "react";
import { Link } from "react-router";
import { EmailField, Field, formStyles } from "../../components/forms/Forms";
import { NewPasswordFields, type User } from "../auth";
import { formatDate, formatDateTime } from "../../lib/dates";
import { ActionButton, ActionForm, buttonClass, FormError } from "./ActionForm";
import { Section, useSectionStatus, type SectionStatus } from "./Section";
import type { Bookmark, HistoryEntry, ReadingListSummary, SavedSearch, SearchParams } from "./types";
import styles from "./account.module.css";

const UNAVAILABLE = "We could not load this just now. Please reload the page in a moment.";

function when(value: string): string {
  return formatDate(value) ?? value;
}

export function ProfileSection({ user }: { user: User }) {
  const { result, report, headingRef } = useSectionStatus(["profile", "email", "password"], user);
  const hasPassword = user.has_password !== false;
  return (
    <Section id="profile" title="Profile and settings" result={result} headingRef={headingRef}>
      <dl className={styles.facts}>
        <dt>Name</dt>
        <dd>{user.name}</dd>
        <dt>Email address</dt>
        <dd>{user.email}</dd>
        {user.created_at ? (
          <>
            <dt>Member since</dt>
            <dd>{when(user.created_at)}</dd>
          </>
        ) : null}
      </dl>

      <h3>Your name</h3>
      <ActionForm intent="profile" onResult={report} noValidate>
        {({ result: r, busy }) => (
          <>
            <Field
              name="name"
              idPrefix="profile"
              label="Name"
              autoComplete="name"
              defaultValue={r?.values?.name ?? user.name}
              errors={r?.errors?.name}
            />
            <FormError result={r} />
            <button type="submit" className={buttonClass} disabled={busy}>
              Save name
            </button>
          </>
        )}
      </ActionForm>

      <h3>Change your email address</h3>
      <ActionForm intent="email" onResult={report} noValidate resetOnSuccess>
        {({ result: r, busy }) => (
          <>
            <p>We will send a link to the new address. Your address changes when you follow it.</p>
            <EmailField
              name="email"
              idPrefix="email"
              label="New email address"
              defaultValue={r?.ok ? "" : r?.values?.email}
              errors={r?.errors?.email}
            />
            {hasPassword ? (
              <Field
                name="password"
                idPrefix="email"
                label="Your password"
                hint="To make sure it is you."
                type="password"
                autoComplete="current-password"
                errors={r?.errors?.password}
              />
            ) : null}
            <FormError result={r} />
            <button type="submit" className={buttonClass} disabled={busy}>
              Send the link
            </button>
          </>
        )}
      </ActionForm>

      <h3>{hasPassword ? "Change your password" : "Set a password"}</h3>
      {hasPassword ? (
        <ActionForm intent="password" onResult={report} noValidate resetOnSuccess>
          {({ result: r, busy }) => (
            <>
              {/* For password managers: which account the new password belongs to. */}
              <input type="text" name="username" autoComplete="username" value={user.email} readOnly hidden />
              <Field
                name="current_password"
                idPrefix="password"
                label="Current password"
                type="password"
                autoComplete="current-password"
                errors={r?.errors?.current_password}
              />
              <NewPasswordFields
                idPrefix="password"
                label="New password"
                hint="At least 8 characters. Other computers you are signed in on will be signed out."
                errors={r?.errors}
              />
              <FormError result={r} />
              <button type="submit" className={buttonClass} disabled={busy}>
                Change password
              </button>
            </>
          )}
        </ActionForm>
      ) : (
        <p>
          You sign in through an external account and have no password here. To set one,{" "}
          <Link to={`/forgot-password?${new URLSearchParams({ email: user.email })}`}>ask for a password link</Link>.
        </p>
      )}
    </Section>
  );
}

function AddToList({ bookmark, lists, onResult }: { bookmark: Bookmark; lists: ReadingListSummary[]; onResult: SectionStatus["report"] }) {
  return (
    <details className={styles.disclosure}>
      <summary aria-label={`Add to a reading list: ${bookmark.title || bookmark.url}`}>Add to a reading list</summary>
      <ActionForm
        intent="list-add"
        target={`b${bookmark.id}`}
        hidden={{ bookmark: bookmark.id, target: `b${bookmark.id}` }}
        onResult={onResult}
        className={styles.inline}
      >
        {({ result: mine, busy }) => {
          return (
            <>
              <div>
                <label htmlFor={`add-${bookmark.id}`}>Reading list</label>
                <select id={`add-${bookmark.id}`} name="list" className={formStyles.input}>
                  {lists.map((list) => (
                    <option key={list.id} value={list.id}>
                      {list.name}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" className={buttonClass} disabled={busy}>
                Add
              </button>
              {mine && !mine.ok ? (
                <p role="alert" className={formStyles.error}>
                  {mine.errors?.url?.[0] ?? mine.message}
                </p>
              ) : null}
            </>
          );
        }}
      </ActionForm>
    </details>
  );
}

export function BookmarksSection({ bookmarks, lists }: { bookmarks: Bookmark[] | null; lists: ReadingListSummary[] | null }) {
  const { result, report, headingRef } = useSectionStatus(["bookmark-remove", "list-add"], bookmarks);
  return (
    <Section id="bookmarks" title="Bookmarks" result={result} headingRef={headingRef}>
      {bookmarks === null ? (
        <p>{UNAVAILABLE}</p>
      ) : bookmarks.length === 0 ? (
        <p className={styles.empty}>You have no bookmarks yet. Use “Bookmark this page” on any news item, page or event to keep it here.</p>
      ) : (
        <ul className={styles.items}>
          {bookmarks.map((bookmark) => (
            <li key={bookmark.id} className={styles.item}>
              <div className={styles.itemMain}>
                <p className={styles.itemTitle}>
                  <Link to={bookmark.url}>{bookmark.title || bookmark.url}</Link>
                </p>
                <p className={styles.meta}>Saved {when(bookmark.created_at)}</p>
              </div>
              <div className={styles.controls}>
                <ActionButton
                  intent="bookmark-remove"
                  target={bookmark.id}
                  hidden={{ title: bookmark.title || bookmark.url }}
                  onResult={(r) => report(r, { refocus: true })}
                  className={styles.controls}
                >
                  Remove<span className="visually-hidden"> bookmark: {bookmark.title || bookmark.url}</span>
                </ActionButton>
                {lists?.length ? <AddToList bookmark={bookmark} lists={lists} onResult={report} /> : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

export function ReadingListsSection({ lists }: { lists: ReadingListSummary[] | null }) {
  const { result, report, headingRef } = useSectionStatus(["list-create"], lists);
  return (
    <Section id="reading-lists" title="Reading lists" result={result} headingRef={headingRef}>
      <p>Gather pages into named lists, in the order you want to read them.</p>
      {lists === null ? (
        <p>{UNAVAILABLE}</p>
      ) : lists.length === 0 ? (
        <p className={styles.empty}>You have no reading lists yet.</p>
      ) : (
        <ul className={styles.items}>
          {lists.map((list) => (
            <li key={list.id} className={styles.item}>
              <div className={styles.itemMain}>
                <p className={styles.itemTitle}>
                  <Link to={`/user-account/reading-lists/${list.id}`}>{list.name}</Link>
                </p>
                <p className={styles.meta}>
                  {list.item_count === 1 ? "1 page" : `${list.item_count} pages`} · changed {when(list.updated_at)}
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
      <h3>New reading list</h3>
      <ActionForm intent="list-create" onResult={report} className={styles.inline} noValidate resetOnSuccess>
        {({ result: r, busy }) => (
          <>
            <Field name="name" idPrefix="new-list" label="Name of the list" defaultValue={r?.ok ? "" : r?.values?.name} errors={r?.errors?.name} />
            <button type="submit" className={buttonClass} disabled={busy}>
              Create list
            </button>
            <FormError result={r} />
          </>
        )}
      </ActionForm>
    </Section>
  );
}

/**
 * Describes a search's parameters for a reader ("Smith, John, 1850 ± 2"): the page
 * passes research's describer, which knows the search fields.
 */
export type DescribeSearch = (params: SearchParams) => string;

export function SavedSearchesSection({
  searches,
  describe,
  extra,
}: {
  searches: SavedSearch[] | null;
  describe: DescribeSearch;
  /** More controls for each search, placed by the page (the newsletter's alert setting). */
  extra?: (search: SavedSearch) => ReactNode;
}) {
  const { result, report, headingRef } = useSectionStatus(["saved-rename", "saved-delete"], searches);
  return (
    <Section id="saved-searches" title="Saved searches" result={result} headingRef={headingRef}>
      {searches === null ? (
        <p>{UNAVAILABLE}</p>
      ) : searches.length === 0 ? (
        <p className={styles.empty}>You have not saved any searches yet.</p>
      ) : (
        <ul className={styles.items}>
          {searches.map((search) => (
            <li key={search.id} className={styles.item}>
              <div className={styles.itemMain}>
                <p className={styles.itemTitle}>{search.name}</p>
                <p className={styles.meta}>{describe(search.params) || search.path}</p>
              </div>
              <div className={styles.controls}>
                <Link to={search.url} className="button button--primary">
                  Run<span className="visually-hidden"> the search “{search.name}”</span>
                </Link>
                <ActionButton
                  intent="saved-delete"
                  target={search.id}
                  hidden={{ name: search.name }}
                  onResult={(r) => report(r, { refocus: true })}
                  className={styles.controls}
                >
                  Delete<span className="visually-hidden"> the saved search “{search.name}”</span>
                </ActionButton>
                <details className={styles.disclosure}>
                  <summary>
                    Rename<span className="visually-hidden"> “{search.name}”</span>
                  </summary>
                  <ActionForm intent="saved-rename" target={search.id} onResult={report} className={styles.inline} noValidate>
                    {({ result: r, busy }) => (
                      <>
                        <Field
                          name="name"
                          idPrefix={`saved-${search.id}`}
                          label="New name"
                          defaultValue={r?.values?.name ?? search.name}
                          errors={r?.errors?.name}
                        />
                        <button type="submit" className={buttonClass} disabled={busy}>
                          Save
                        </button>
                        <FormError result={r} />
                      </>
                    )}
                  </ActionForm>
                </details>
              </div>
              {extra?.(search)}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

export function SearchHistorySection({ history, describe }: { history: HistoryEntry[] | null; describe: DescribeSearch }) {
  const { result, report, headingRef } = useSectionStatus(["history-clear", "history-delete"], history);
  return (
    <Section id="search-history" title="Search history" result={result} headingRef={headingRef}>
      <p>Your most recent searches, newest first (we keep the last 200).</p>
      {history === null ? (
        <p>{UNAVAILABLE}</p>
      ) : history.length === 0 ? (
        <p className={styles.empty}>Your search history is empty.</p>
      ) : (
        <>
          <ol className={styles.items}>
            {history.map((entry) => {
              const label = entry.summary || describe(entry.params) || entry.path;
              return (
                <li key={entry.id} className={styles.item}>
                  <div className={styles.itemMain}>
                    <p className={styles.itemTitle}>{label}</p>
                    <p className={styles.meta}>{formatDateTime(entry.created_at) ?? entry.created_at}</p>
                  </div>
                  <div className={styles.controls}>
                    <Link to={entry.url} className="button" aria-label={`Search again: ${label}`}>
                      Search again
                    </Link>
                    <ActionButton intent="history-delete" target={entry.id} onResult={(r) => report(r, { refocus: true })} className={styles.controls}>
                      Remove<span className="visually-hidden"> from history: {label}</span>
                    </ActionButton>
                  </div>
                </li>
              );
            })}
          </ol>
          <ActionButton intent="history-clear" onResult={(r) => report(r, { refocus: true })}>
            Clear search history
          </ActionButton>
        </>
      )}
    </Section>
  );
}

export function DataSection() {
  return (
    <section id="your-data" className={styles.section} aria-labelledby="your-data-heading">
      <h2 id="your-data-heading">Your data</h2>
      <p>Everything we keep about your account — profile, bookmarks, reading lists, searches and sign-ins — in one file (JSON).</p>
      <p>
        {/* A file download: a plain link, not a router <Link>. */}
        <a href="/user-account/data" className="button" download="lineage-my-data.json">
          Download my data
        </a>
      </p>
      <div className={styles.danger}>
        <h3>Delete your account</h3>
        <p>This removes your account and everything in it for good. We will ask you to confirm.</p>
        <p>
          <Link to="/user-account/delete" className="button">
            Delete my account…
          </Link>
        </p>
      </div>
    </section>
  );
}
