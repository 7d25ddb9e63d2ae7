// The forms of the account area (/user-account and its pages), each an `intent`
// handled by one function that calls the Go API as the signed-in member.
import type { RouterContextProvider } from "react-router";
import { getAuth, formFailure, memberCall, memberRead, text } from "../auth/index.server";
import type { FormResult } from "../../lib/form-result";
import { searchFromUrl } from "./searches";
import type { Bookmark, ReadingList, SavedSearch } from "./types";

type Context = Readonly<RouterContextProvider>;

export interface AccountResult extends FormResult {
  /** For a reordered list item: where it is now, and which way it moved. */
  moved?: { id: number; direction: "up" | "down"; position: number; count: number };
  /** A new reading list's id. */
  createdId?: number;
}

const id = (form: FormData, name = "id") => {
  const value = text(form, name);
  return /^\d+$/.test(value) ? value : null;
};

const missing = (intent: string, target?: string): AccountResult => ({
  ok: false,
  intent,
  target,
  message: "Something was missing from the form. Please reload the page and try again.",
});

type Handler = (context: Context, form: FormData, intent: string) => Promise<AccountResult>;

/** Deletes the member's thing numbered by the form's `id` under `path` (one already gone is done too). */
function deleteById(path: string, message: (form: FormData) => string): Handler {
  return async (context, form, intent) => {
    const target = id(form);
    if (!target) return missing(intent);
    const done = await memberCall(getAuth(context), form, { method: "DELETE", path: `${path}/${target}`, expect: [204, 404] });
    if (!done.ok) return { ...formFailure(done), intent, target };
    return { ok: true, intent, target, message: message(form) };
  };
}

const handlers: Record<string, Handler> = {
  async profile(context, form, intent) {
    const name = text(form, "name");
    const done = await memberCall(getAuth(context), form, { method: "PATCH", path: "/api/user", json: { name } });
    if (!done.ok) return { ...formFailure(done), intent, values: { name } };
    return { ok: true, intent, message: "Your name has been saved." };
  },

  async email(context, form, intent) {
    const email = text(form, "email").trim();
    const auth = getAuth(context);
    const json: Record<string, string> = { email };
    if (auth.state.user?.has_password !== false) json.password = text(form, "password");
    const done = await memberCall<{ message: string }>(auth, form, { method: "PUT", path: "/api/user/email", json });
    if (!done.ok) return { ...formFailure(done), intent, values: { email } };
    return { ok: true, intent, message: done.body?.message ?? "We have emailed a confirmation link to the new address." };
  },

  async password(context, form, intent) {
    const auth = getAuth(context);
    const json: Record<string, string> = {
      password: text(form, "password"),
      password_confirmation: text(form, "password_confirmation"),
    };
    if (auth.state.user?.has_password !== false) json.current_password = text(form, "current_password");
    const done = await memberCall<{ message: string }>(auth, form, { method: "PUT", path: "/api/user/password", json });
    if (!done.ok) return { ...formFailure(done), intent };
    return { ok: true, intent, message: done.body?.message ?? "Your password has been changed." };
  },

  "bookmark-remove": deleteById("/api/bookmarks", (form) => `Removed “${text(form, "title")}” from your bookmarks.`),

  async "list-create"(context, form, intent) {
    const name = text(form, "name");
    const done = await memberCall<ReadingList>(getAuth(context), form, { method: "POST", path: "/api/reading-lists", json: { name } });
    if (!done.ok) return { ...formFailure(done), intent, values: { name } };
    return { ok: true, intent, createdId: done.body?.id, message: `Created the reading list “${done.body?.name ?? name}”.` };
  },

  async "list-rename"(context, form, intent) {
    const list = id(form);
    if (!list) return missing(intent);
    const name = text(form, "name");
    const done = await memberCall<ReadingList>(getAuth(context), form, { method: "PATCH", path: `/api/reading-lists/${list}`, json: { name } });
    if (!done.ok) return { ...formFailure(done), intent, target: list, values: { name } };
    return { ok: true, intent, target: list, message: `Renamed the list to “${done.body?.name ?? name}”.` };
  },

  "list-delete": deleteById("/api/reading-lists", (form) => `Deleted the reading list “${text(form, "name")}”.`),

  async "list-add"(context, form, intent) {
    const list = id(form, "list");
    if (!list) return { ...missing(intent), errors: { list: ["Choose a reading list."] } };
    let url = text(form, "url").trim();
    let title = text(form, "title").trim();
    const auth = getAuth(context);
    // "Add one of my bookmarks": the bookmark's page and title.
    const fromBookmark = id(form, "bookmark");
    if (fromBookmark) {
      const bookmarks = await memberRead<{ data: Bookmark[] }>(auth, "/api/bookmarks");
      const bookmark = bookmarks?.data.find((b) => String(b.id) === fromBookmark);
      if (!bookmark) return { ok: false, intent, target: text(form, "target") || list, message: "That bookmark no longer exists." };
      url = bookmark.url;
      title = bookmark.title;
    }
    const done = await memberCall(auth, form, { method: "POST", path: `/api/reading-lists/${list}/items`, json: { url, title } });
    const target = text(form, "target") || list;
    if (!done.ok) return { ...formFailure(done), intent, target, values: { url, title } };
    return { ok: true, intent, target, message: `Added “${title || url}” to the list.` };
  },

  async "item-remove"(context, form, intent) {
    const list = id(form, "list");
    const item = id(form);
    if (!list || !item) return missing(intent);
    const done = await memberCall(getAuth(context), form, {
      method: "DELETE",
      path: `/api/reading-lists/${list}/items/${item}`,
      expect: [204, 404],
    });
    if (!done.ok) return { ...formFailure(done), intent, target: item };
    return { ok: true, intent, target: item, message: `Removed “${text(form, "title")}” from the list.` };
  },

  async "item-move"(context, form, intent) {
    const list = id(form, "list");
    const item = id(form);
    const direction = text(form, "direction") === "up" ? "up" : "down";
    if (!list || !item) return missing(intent);
    const auth = getAuth(context);
    const current = await memberRead<ReadingList>(auth, `/api/reading-lists/${list}`);
    if (!current) return { ok: false, intent, target: item, message: "That list no longer exists." };
    const ids = current.items.map((i) => i.id);
    const from = ids.indexOf(Number(item));
    if (from < 0) return { ok: false, intent, target: item, message: "That item is no longer in the list." };
    const to = direction === "up" ? Math.max(0, from - 1) : Math.min(ids.length - 1, from + 1);
    const moved = { id: Number(item), direction, position: to + 1, count: ids.length } as const;
    const title = current.items[from]!.title || current.items[from]!.url;
    if (to === from) return { ok: true, intent, target: item, moved, message: `“${title}” is already ${direction === "up" ? "first" : "last"}.` };
    ids.splice(to, 0, ...ids.splice(from, 1));
    const done = await memberCall(auth, form, { method: "PUT", path: `/api/reading-lists/${list}/order`, json: { item_ids: ids } });
    if (!done.ok) return { ...formFailure(done), intent, target: item };
    return { ok: true, intent, target: item, moved, message: `Moved “${title}” to position ${to + 1} of ${ids.length}.` };
  },

  async "saved-create"(context, form, intent) {
    const name = text(form, "name");
    const search = searchFromUrl(text(form, "url"));
    if (!search) return { ...missing(intent), values: { name } };
    const done = await memberCall<SavedSearch>(getAuth(context), form, { method: "POST", path: "/api/saved-searches", json: { name, ...search } });
    if (!done.ok) return { ...formFailure(done), intent, values: { name } };
    return { ok: true, intent, message: `Saved the search as “${done.body?.name ?? name}”. Find it under Saved searches in your account.` };
  },

  async "saved-rename"(context, form, intent) {
    const search = id(form);
    if (!search) return missing(intent);
    const name = text(form, "name");
    const done = await memberCall(getAuth(context), form, { method: "PATCH", path: `/api/saved-searches/${search}`, json: { name } });
    if (!done.ok) return { ...formFailure(done), intent, target: search, values: { name } };
    return { ok: true, intent, target: search, message: `Renamed the search to “${name.trim()}”.` };
  },

  "saved-delete": deleteById("/api/saved-searches", (form) => `Deleted the saved search “${text(form, "name")}”.`),

  async "history-clear"(context, form, intent) {
    const done = await memberCall(getAuth(context), form, { method: "DELETE", path: "/api/search-history" });
    if (!done.ok) return { ...formFailure(done), intent };
    return { ok: true, intent, message: "Your search history has been cleared." };
  },

  "history-delete": deleteById("/api/search-history", () => "Removed the search from your history."),
};

/** Runs the form's intent; unknown intents are refused. */
export async function runAccountAction(context: Context, form: FormData, allowed: readonly string[]): Promise<AccountResult> {
  const intent = text(form, "intent");
  const handler = allowed.includes(intent) ? handlers[intent] : undefined;
  if (!handler) return { ok: false, intent, message: "Unknown action. Please reload the page and try again." };
  return handler(context, form, intent);
}

export const ACCOUNT_INTENTS = [
  "profile",
  "email",
  "password",
  "bookmark-remove",
  "list-create",
  "list-add",
  "saved-rename",
  "saved-delete",
  "history-clear",
  "history-delete",
] as const;

export const SAVED_SEARCH_INTENTS = ["saved-create"] as const;

export const READING_LIST_INTENTS = ["list-rename", "list-delete", "list-add", "item-remove", "item-move"] as const;
