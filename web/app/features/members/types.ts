// The account area's collections as the Go API returns them (docs/auth.md,
// "Account area APIs").

export interface Bookmark {
  id: number;
  url: string;
  title: string;
  created_at: string;
}

export interface ReadingListSummary {
  id: number;
  name: string;
  item_count: number;
  created_at: string;
  updated_at: string;
}

export interface ReadingListItem {
  id: number;
  url: string;
  title: string;
  position: number;
  created_at: string;
}

export interface ReadingList extends ReadingListSummary {
  items: ReadingListItem[];
}

export type SearchParams = Record<string, string | string[]>;

export interface SavedSearch {
  id: number;
  name: string;
  path: string;
  params: SearchParams;
  url: string;
  created_at: string;
  updated_at: string;
}

export interface HistoryEntry {
  id: number;
  path: string;
  params: SearchParams;
  url: string;
  summary: string;
  created_at: string;
}

/** A collection the page could not load is null (the section says so). */
export interface AccountArea {
  bookmarks: Bookmark[] | null;
  readingLists: ReadingListSummary[] | null;
  savedSearches: SavedSearch[] | null;
  history: HistoryEntry[] | null;
}

/** The bookmark toggle's state on a content page. */
export type BookmarkState = { signedIn: false } | { signedIn: true; id: number | null };

/** The path a page is bookmarked under: its own, without a trailing slash. */
export function bookmarkPath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, "") || "/" : pathname;
}
