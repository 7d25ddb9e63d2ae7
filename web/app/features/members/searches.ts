// Searches as the account area stores them: a page's path plus its query parameters.
import type { SearchParams } from "./types";

/** Splits a local URL ("/path?a=1&a=2&b=x") into the path and parameters the API takes. */
export function searchFromUrl(url: string): { path: string; params: SearchParams } | null {
  if (!url.startsWith("/") || url.startsWith("//")) return null;
  const parsed = new URL(url, "http://lineage.invalid");
  const params: SearchParams = {};
  for (const key of new Set(parsed.searchParams.keys())) {
    // Paging is where the reader was, not part of the search.
    if (key === "page") continue;
    const values = parsed.searchParams.getAll(key).filter((v) => v !== "");
    if (!values.length) continue;
    params[key] = values.length === 1 ? values[0]! : values;
  }
  return { path: parsed.pathname, params };
}
