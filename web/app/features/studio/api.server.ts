// The studio's calls to the content API (/api/studio/content/…), made as the signed-in
// editor (their session or token goes along). Reads answer an ApiResult; what a failure
// means is the screen's business.
import { getAuth } from "../auth/index.server";
import { callApi, getApi } from "../../lib/api.server";
import type { ApiResult } from "../../lib/api-result";
import type { CustomType } from "./models";
import type { DocumentSummary, LinkTarget, Media, Models, Page, Release, StudioDocument, UidCheck, Version, VersionDetail } from "./types";

type Context = Parameters<typeof getAuth>[0];

export const API = "/api/studio/content";

function read<T>(context: Context, path: string): Promise<ApiResult<T>> {
  return getApi<T>(getAuth(context), `${API}${path}`);
}

/** A write with the CSRF token the browser's form or fetcher sent. */
function write<T>(context: Context, method: string, path: string, csrf: string | null, json?: unknown, form?: FormData): Promise<ApiResult<T | null>> {
  const auth = getAuth(context);
  if (!auth.acceptsFormToken(csrf)) return Promise.resolve({ ok: false, status: 419, errors: {} });
  return callApi<T>(auth, method, `${API}${path}`, { json, form, csrf });
}

const q = (params: Record<string, string | number | undefined | null>) => {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") s.set(k, String(v));
  const t = s.toString();
  return t ? `?${t}` : "";
};

export const loadModels = (c: Context) => read<Models>(c, "/models");
export const loadModel = (c: Context, id: string) => read<CustomType>(c, `/models/${encodeURIComponent(id)}`);
export const saveModel = (c: Context, csrf: string | null, id: string, model: unknown) => write<CustomType>(c, "PUT", `/models/${encodeURIComponent(id)}`, csrf, model);
export const resetModel = (c: Context, csrf: string | null, id: string) => write<CustomType>(c, "DELETE", `/models/${encodeURIComponent(id)}`, csrf);

export interface ListQuery {
  type?: string;
  status?: string;
  tag?: string;
  author?: string;
  from?: string;
  to?: string;
  q?: string;
  sort?: string;
  page?: number;
}

export const listDocuments = (c: Context, query: ListQuery) => read<Page<DocumentSummary>>(c, `/documents${q({ ...query })}`);
export const loadDocument = (c: Context, id: string) => read<StudioDocument>(c, `/documents/${encodeURIComponent(id)}`);
export const createDocument = (c: Context, csrf: string | null, body: { type: string; uid?: string; tags?: string[] }) =>
  write<StudioDocument>(c, "POST", "/documents", csrf, body);
export const saveDocument = (c: Context, csrf: string | null, id: string, body: { revision: number; uid: string | null; tags: string[]; data: unknown }) =>
  write<StudioDocument>(c, "PUT", `/documents/${encodeURIComponent(id)}`, csrf, body);

/** publish, unpublish, archive, unarchive, duplicate. */
export const documentAction = (c: Context, csrf: string | null, id: string, action: string, revision?: number) =>
  write<StudioDocument>(c, "POST", `/documents/${encodeURIComponent(id)}/${action}`, csrf, revision === undefined ? {} : { revision });

export const loadVersions = (c: Context, id: string) => read<{ results: Version[] }>(c, `/documents/${encodeURIComponent(id)}/versions`);
export const loadVersion = (c: Context, id: string, vid: string) => read<VersionDetail>(c, `/documents/${encodeURIComponent(id)}/versions/${encodeURIComponent(vid)}`);
export const restoreVersion = (c: Context, csrf: string | null, id: string, vid: string, revision: number) =>
  write<StudioDocument>(c, "POST", `/documents/${encodeURIComponent(id)}/versions/${encodeURIComponent(vid)}/restore`, csrf, { revision });

export const checkUid = (c: Context, p: { type: string; lang?: string; uid: string; id?: string }) => read<UidCheck>(c, `/uid-check${q(p)}`);
export const searchLinks = (c: Context, p: { q?: string; type?: string }) => read<{ results: LinkTarget[] }>(c, `/links${q({ ...p, page_size: 10 })}`);
export const loadTags = (c: Context) => read<{ tags: string[] }>(c, "/tags");
export const makePreview = (c: Context, csrf: string | null, body: { document_id?: string; release_id?: string }) =>
  write<{ token: string; url: string; expires_at: string }>(c, "POST", "/preview", csrf, body);

export const listReleases = (c: Context, status?: string) => read<{ results: Release[] }>(c, `/releases${q({ status })}`);
export const loadRelease = (c: Context, id: string) => read<Release>(c, `/releases/${encodeURIComponent(id)}`);
export const createRelease = (c: Context, csrf: string | null, body: { label: string; scheduled_at?: string | null }) => write<Release>(c, "POST", "/releases", csrf, body);
export const updateRelease = (c: Context, csrf: string | null, id: string, body: { label?: string; scheduled_at?: string | null }) =>
  write<Release>(c, "PATCH", `/releases/${encodeURIComponent(id)}`, csrf, body);
export const deleteRelease = (c: Context, csrf: string | null, id: string) => write<null>(c, "DELETE", `/releases/${encodeURIComponent(id)}`, csrf);
export const releaseDocument = (c: Context, csrf: string | null, id: string, doc: string, add: boolean) =>
  write<Release>(c, add ? "PUT" : "DELETE", `/releases/${encodeURIComponent(id)}/documents/${encodeURIComponent(doc)}`, csrf);
export const publishRelease = (c: Context, csrf: string | null, id: string) => write<Release>(c, "POST", `/releases/${encodeURIComponent(id)}/publish`, csrf);

export const listMedia = (c: Context, p: { q?: string; page?: number; page_size?: number }) => read<Page<Media>>(c, `/media${q(p)}`);
export const uploadMedia = (c: Context, csrf: string | null, form: FormData) => write<Media>(c, "POST", "/media", csrf, undefined, form);
export const updateMedia = (c: Context, csrf: string | null, id: string, body: { alt?: string; copyright?: string; name?: string }) =>
  write<Media>(c, "PATCH", `/media/${encodeURIComponent(id)}`, csrf, body);

/** Whether the signed-in user is an admin (model editing). */
export { isAdmin } from "./access.server";
