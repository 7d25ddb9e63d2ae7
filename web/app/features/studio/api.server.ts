// The studio's calls to the content API (/api/studio/content/…), made as the signed-in
// editor (their session or token goes along). Reads answer an ApiResult; what a failure
// means is the screen's business.
import { CSRF_FIELD } from "../auth";
import { getAuth } from "../auth/index.server";
import { callApi, getApi } from "../../lib/api.server";
import type { ApiResult } from "../../lib/api-result";
import type { CustomType } from "./models";
import type { DocumentSummary, LinkTarget, Media, Models, Page, Release, StudioDocument, UidCheck, Version, VersionDetail, WebhookDelivery } from "./types";

type Context = Parameters<typeof getAuth>[0];

export const API = "/api/studio/content";

function read<T>(context: Context, path: string, fix?: (body: T) => T): Promise<ApiResult<T>> {
  return getApi<T>(getAuth(context), `${API}${path}`).then((r) => (r.ok && fix ? { ...r, body: fix(r.body) } : r));
}

// Go writes an empty list as null: the screens read lists as lists.
const list = <T,>(v: T[] | null | undefined): T[] => (Array.isArray(v) ? v : []);
const fixDocument = (d: StudioDocument): StudioDocument => ({ ...d, tags: list(d.tags), releases: list(d.releases), problems: d.problems ?? {}, data: d.data ?? {} });
const fixPage = <T,>(p: Page<T>): Page<T> => ({ ...p, results: list(p.results) });
const fixMedia = (m: Media): Media => ({ ...m, variants: list(m.variants) });
const fixRelease = (r: Release): Release => ({ ...r, documents: list(r.documents) });
const fixResults = <T,>(p: { results: T[] }) => ({ ...p, results: list(p.results) });

/** The CSRF token a studio form sent (CsrfField), or null when it sent none. */
export function formToken(form: FormData): string | null {
  const token = form.get(CSRF_FIELD);
  return typeof token === "string" ? token : null;
}

/** A write with the CSRF token the browser's form or fetcher sent. */
function write<T>(context: Context, method: string, path: string, csrf: string | null, json?: unknown, form?: FormData, fix?: (body: T) => T): Promise<ApiResult<T | null>> {
  const auth = getAuth(context);
  if (!auth.acceptsFormToken(csrf)) return Promise.resolve({ ok: false, status: 419, errors: {} });
  return callApi<T>(auth, method, `${API}${path}`, { json, form, csrf }).then((r) => (r.ok && r.body && fix ? { ...r, body: fix(r.body) } : r));
}

const q = (params: Record<string, string | number | undefined | null>) => {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") s.set(k, String(v));
  const t = s.toString();
  return t ? `?${t}` : "";
};

export const loadModels = (c: Context) => read<Models>(c, "/models", (m) => ({ types: list(m.types), slices: list(m.slices) }));
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

export const listDocuments = (c: Context, query: ListQuery) => read<Page<DocumentSummary>>(c, `/documents${q({ ...query })}`, (p) => ({ ...fixPage(p), results: list(p.results).map((d) => ({ ...d, tags: list(d.tags) })) }));
export const loadDocument = (c: Context, id: string) => read<StudioDocument>(c, `/documents/${encodeURIComponent(id)}`, fixDocument);
export const createDocument = (c: Context, csrf: string | null, body: { type: string; uid?: string; tags?: string[] }) =>
  write<StudioDocument>(c, "POST", "/documents", csrf, body, undefined, fixDocument);
export const saveDocument = (c: Context, csrf: string | null, id: string, body: { revision: number; uid: string | null; tags: string[]; data: unknown }) =>
  write<StudioDocument>(c, "PUT", `/documents/${encodeURIComponent(id)}`, csrf, body, undefined, fixDocument);

/** publish, unpublish, archive, unarchive, duplicate. */
export const documentAction = (c: Context, csrf: string | null, id: string, action: string, revision?: number) =>
  write<StudioDocument>(c, "POST", `/documents/${encodeURIComponent(id)}/${action}`, csrf, revision === undefined ? {} : { revision }, undefined, fixDocument);

export const loadVersions = (c: Context, id: string) => read<{ results: Version[] }>(c, `/documents/${encodeURIComponent(id)}/versions`, fixResults);
export const loadVersion = (c: Context, id: string, vid: string) => read<VersionDetail>(c, `/documents/${encodeURIComponent(id)}/versions/${encodeURIComponent(vid)}`);
export const restoreVersion = (c: Context, csrf: string | null, id: string, vid: string, revision: number) =>
  write<StudioDocument>(c, "POST", `/documents/${encodeURIComponent(id)}/versions/${encodeURIComponent(vid)}/restore`, csrf, { revision }, undefined, fixDocument);

export const checkUid = (c: Context, p: { type: string; lang?: string; uid: string; id?: string }) => read<UidCheck>(c, `/uid-check${q(p)}`);
export const searchLinks = (c: Context, p: { q?: string; type?: string }) => read<{ results: LinkTarget[] }>(c, `/links${q({ ...p, page_size: 10 })}`, fixResults);
export const loadTags = (c: Context) => read<{ tags: string[] }>(c, "/tags", (t) => ({ tags: list(t.tags) }));
export const makePreview = (c: Context, csrf: string | null, body: { document_id?: string; release_id?: string }) =>
  write<{ token: string; url: string; expires_at: string }>(c, "POST", "/preview", csrf, body);

export const listReleases = (c: Context, status?: string) => read<{ results: Release[] }>(c, `/releases${q({ status })}`, (p) => ({ results: list(p.results).map(fixRelease) }));
export const loadRelease = (c: Context, id: string) => read<Release>(c, `/releases/${encodeURIComponent(id)}`, fixRelease);
export const createRelease = (c: Context, csrf: string | null, body: { label: string; scheduled_at?: string | null }) => write<Release>(c, "POST", "/releases", csrf, body, undefined, fixRelease);
export const updateRelease = (c: Context, csrf: string | null, id: string, body: { label?: string; scheduled_at?: string | null }) =>
  write<Release>(c, "PATCH", `/releases/${encodeURIComponent(id)}`, csrf, body, undefined, fixRelease);
export const deleteRelease = (c: Context, csrf: string | null, id: string) => write<null>(c, "DELETE", `/releases/${encodeURIComponent(id)}`, csrf);
export const releaseDocument = (c: Context, csrf: string | null, id: string, doc: string, add: boolean) =>
  write<Release>(c, add ? "PUT" : "DELETE", `/releases/${encodeURIComponent(id)}/documents/${encodeURIComponent(doc)}`, csrf, undefined, undefined, fixRelease);
export const publishRelease = (c: Context, csrf: string | null, id: string) => write<Release>(c, "POST", `/releases/${encodeURIComponent(id)}/publish`, csrf, undefined, undefined, fixRelease);

export const listMedia = (c: Context, p: { q?: string; page?: number; page_size?: number }) => read<Page<Media>>(c, `/media${q(p)}`, (m) => ({ ...fixPage(m), results: list(m.results).map(fixMedia) }));
export const uploadMedia = (c: Context, csrf: string | null, form: FormData) => write<Media>(c, "POST", "/media", csrf, undefined, form, fixMedia);
export const updateMedia = (c: Context, csrf: string | null, id: string, body: { alt?: string; copyright?: string; name?: string }) =>
  write<Media>(c, "PATCH", `/media/${encodeURIComponent(id)}`, csrf, body, undefined, fixMedia);

export const loadWebhooks = (c: Context) =>
  read<{ urls: string[]; deliveries: WebhookDelivery[] }>(c, "/webhooks", (w) => ({ urls: list(w.urls), deliveries: list(w.deliveries) }));
export const testWebhooks = (c: Context, csrf: string | null) => write<{ queued: number }>(c, "POST", "/webhooks/test", csrf, {});

/** Whether the signed-in user is an admin (model editing). */
export { isAdmin } from "./access.server";
