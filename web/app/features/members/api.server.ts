// Server-side reads of the account area, as the signed-in member (through the auth
// session of the request, so cookies and tokens are handled in one place).
import type { RouterContextProvider } from "react-router";
import { getAuth, memberRead } from "../auth/index.server";
import { bookmarkPath, type AccountArea, type Bookmark, type BookmarkState, type HistoryEntry, type ReadingList, type ReadingListSummary, type SavedSearch } from "./types";

type Context = Readonly<RouterContextProvider>;
type Wrapped<T> = { data: T[] };

const unwrap = <T>(body: Wrapped<T> | null): T[] | null => (body && Array.isArray(body.data) ? body.data : null);

export async function loadAccountArea(context: Context): Promise<AccountArea> {
  const auth = getAuth(context);
  const [bookmarks, readingLists, savedSearches, history] = await Promise.all([
    memberRead<Wrapped<Bookmark>>(auth, "/api/bookmarks").then(unwrap),
    memberRead<Wrapped<ReadingListSummary>>(auth, "/api/reading-lists").then(unwrap),
    memberRead<Wrapped<SavedSearch>>(auth, "/api/saved-searches").then(unwrap),
    memberRead<Wrapped<HistoryEntry>>(auth, "/api/search-history").then(unwrap),
  ]);
  return { bookmarks, readingLists, savedSearches, history };
}

export async function loadReadingList(context: Context, id: string): Promise<ReadingList | null> {
  if (!/^\d+$/.test(id)) return null;
  return memberRead<ReadingList>(getAuth(context), `/api/reading-lists/${id}`);
}

export async function loadBookmarks(context: Context): Promise<Bookmark[]> {
  return unwrap(await memberRead<Wrapped<Bookmark>>(getAuth(context), "/api/bookmarks")) ?? [];
}

/**
 * The bookmark toggle's state for a content page: signed out, or the member's
 * bookmark of this path (or none). Costs an API call only for signed-in members.
 */
export async function bookmarkState(context: Context, path: string): Promise<BookmarkState> {
  const auth = getAuth(context);
  if (!auth.state.loggedIn) return { signedIn: false };
  const found = unwrap(await memberRead<Wrapped<Bookmark>>(auth, `/api/bookmarks?${new URLSearchParams({ url: bookmarkPath(path) })}`));
  return { signedIn: true, id: found?.[0]?.id ?? null };
}
