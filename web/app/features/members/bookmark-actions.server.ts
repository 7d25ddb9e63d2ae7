// Adding and removing a bookmark from a content page's toggle (routes/bookmarks.tsx).
import { getAuth, formFailure, memberCall, memberRead, text } from "../auth/index.server";
import type { FormResult } from "../../lib/form-result";
import type { Bookmark } from "./types";
import type { RouterContextProvider } from "react-router";

export interface BookmarkResult extends FormResult {
  /** The page's bookmark after the action (null: not bookmarked). */
  id?: number | null;
}

export async function toggleBookmark(context: Readonly<RouterContextProvider>, form: FormData): Promise<BookmarkResult> {
  const auth = getAuth(context);
  const intent = text(form, "intent");
  const url = text(form, "url");
  if (intent === "add") {
    const title = text(form, "title").trim();
    const done = await memberCall<Bookmark>(auth, form, { method: "POST", path: "/api/bookmarks", json: { url, title } });
    if (!done.ok) return { ...formFailure(done), intent };
    return { ok: true, intent, id: done.body?.id ?? null, message: "Added to your bookmarks." };
  }
  if (intent === "remove") {
    let id = text(form, "id");
    if (!/^\d+$/.test(id)) {
      const found = await memberRead<{ data: Bookmark[] }>(auth, `/api/bookmarks?${new URLSearchParams({ url })}`);
      id = String(found?.data?.[0]?.id ?? "");
      if (!id) return { ok: true, intent, id: null, message: "Removed from your bookmarks." };
    }
    const done = await memberCall(auth, form, { method: "DELETE", path: `/api/bookmarks/${id}`, expect: [204, 404] });
    if (!done.ok) return { ...formFailure(done), intent };
    return { ok: true, intent, id: null, message: "Removed from your bookmarks." };
  }
  return { ok: false, intent, message: "Unknown action." };
}
