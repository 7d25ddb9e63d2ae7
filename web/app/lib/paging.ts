// ?page=N paging of lists.

/** Link to page N of a list whose first page is basePath (which may carry a query of its own). */
export function pageHref(basePath: string, page: number): string {
  if (page <= 1) return basePath;
  const hash = basePath.indexOf("#");
  const [path, fragment] = hash < 0 ? [basePath, ""] : [basePath.slice(0, hash), basePath.slice(hash)];
  return `${path}${path.includes("?") ? "&" : "?"}page=${page}${fragment}`;
}

/** The page number in ?page=N: 1 when absent, null when not a positive integer. */
export function parsePageParam(value: string | null): number | null {
  if (value === null || value === "") return 1;
  if (!/^\d{1,6}$/.test(value)) return null;
  const page = Number(value);
  return page >= 1 ? page : null;
}
