// Reads and writes of the family-tree API (docs/trees.md) for the pages' loaders and
// actions. Every call goes through the request's auth session, so the visitor's own
// rights apply: owners, editors and admins see unpublished trees and the living, and
// everyone else gets the API's privacy rule. Nothing here decides who sees what.
import type { RouterContextProvider } from "react-router";
import type { ApiResult } from "../../lib/api-result";
import { getApi } from "../../lib/api.server";
import { getAuth, formFailure, memberCall, text } from "../auth/index.server";
import type { FormResult } from "../../lib/form-result";
import type { Graph, PedigreeSearchAnswer, PeoplePage, Person, Surname, Tree } from "./types";
import type { ChartKind } from "./slug";

type Context = Readonly<RouterContextProvider>;

function unavailable(what: string, detail: string): Response {
  console.error(`[trees] ${what} failed: ${detail}`);
  return new Response("Family trees are temporarily unavailable", { status: 503, statusText: "Service Unavailable" });
}

export function notFound(): Response {
  return new Response("This page could not be found", { status: 404, statusText: "Not Found" });
}

/**
 * A GET as the visitor. 404 → null; 422 → the API's errors; anything else that is not
 * 200 throws a 503 page (the Go API is down or broken, which the visitor cannot fix).
 */
async function read<T>(context: Context, path: string): Promise<ApiResult<T>> {
  const done = await getApi<T>(getAuth(context), path);
  if (done.ok || done.status === 404 || done.status === 422) return done;
  throw unavailable(`GET ${path.split("?")[0]}`, done.status === 0 ? (done.cause ?? "") : `status ${done.status}`);
}

const enc = encodeURIComponent;

/** Published trees (and, for editors and owners, unpublished ones they may see). */
export async function listTrees(context: Context): Promise<Tree[]> {
  const r = await read<{ trees: Tree[] }>(context, "/api/trees");
  return r.ok ? r.body.trees : [];
}

export async function getTree(context: Context, slug: string): Promise<Tree | null> {
  const r = await read<Tree>(context, `/api/trees/${enc(slug)}`);
  return r.ok ? r.body : null;
}

export async function getSurnames(context: Context, slug: string): Promise<Surname[]> {
  const r = await read<{ surnames: Surname[] }>(context, `/api/trees/${enc(slug)}/surnames`);
  return r.ok ? r.body.surnames : [];
}

export interface PeopleQuery {
  surname?: string;
  surname_mode?: string;
  given?: string;
  offset?: number;
  limit?: number;
}

function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}

export async function listPeople(context: Context, slug: string, q: PeopleQuery) {
  return read<PeoplePage>(context, `/api/trees/${enc(slug)}/people${query({ ...q })}`);
}

export async function getPerson(context: Context, slug: string, id: string): Promise<Person | null> {
  const r = await read<Person>(context, `/api/trees/${enc(slug)}/people/${enc(id)}`);
  if (!r.ok) return null;
  // A Living person's lists are empty; any the answer leaves out are read as empty too,
  // so the page never reaches for a field that is not there.
  const p = r.body;
  return {
    ...p,
    names: p.names ?? [],
    events: p.events ?? [],
    parents: (p.parents ?? []).map((x) => ({ ...x, partners: x.partners ?? [] })),
    siblings: p.siblings ?? [],
    families: (p.families ?? []).map((f) => ({ ...f, events: f.events ?? [], children: f.children ?? [] })),
    sources: p.sources ?? [],
    notes: p.notes ?? [],
    media: p.media ?? [],
    more: p.more ?? {},
    truncated: p.truncated ?? false,
  };
}

/** The people of one chart: only the generations shown, never the whole tree. */
export async function getGraph(context: Context, slug: string, person: string, kind: ChartKind, generations: number): Promise<Graph | null> {
  const r = await read<Graph>(context, `/api/trees/${enc(slug)}/graph${query({ person, kind, generations })}`);
  return r.ok ? r.body : null;
}

/** The first person of a tree in the API's order (the viewer's start when none is named). */
export async function firstPerson(context: Context, slug: string): Promise<string | null> {
  const r = await listPeople(context, slug, { limit: 1 });
  return r.ok ? (r.body.results[0]?.id ?? null) : null;
}

export interface PedigreeQuery {
  surname?: string;
  surname_mode?: string;
  given?: string;
  place?: string;
  year?: string;
  year_pm?: string;
  offset?: number;
  limit?: number;
}

export async function pedigreeSearch(context: Context, q: PedigreeQuery) {
  return read<PedigreeSearchAnswer>(context, `/api/trees/search${query({ ...q })}`);
}

/** The signed-in member's own uploaded trees (null when the API cannot be read). */
export async function myTrees(context: Context): Promise<Tree[] | null> {
  try {
    const r = await read<{ trees: Tree[] }>(context, "/api/trees/uploads");
    return r.ok ? r.body.trees : [];
  } catch {
    return null;
  }
}

export interface UploadResult extends FormResult {
  tree?: Tree;
  warnings?: string[];
  warningCount?: number;
}

/**
 * A GEDCOM upload form (a member's or the studio's): the file, title and description,
 * checked, and the multipart body the API's upload takes; or what to fix.
 */
export function readTreeUpload(
  form: FormData,
): { values: { title: string; description: string } } & ({ ok: true; body: FormData } | { ok: false; errors: Record<string, string[]> }) {
  const file = form.get("file");
  const title = text(form, "title").trim();
  const description = text(form, "description").trim();
  const values = { title, description };
  const errors: Record<string, string[]> = {};
  if (!(file instanceof File) || file.size === 0) errors.file = ["Choose a GEDCOM file (.ged or .gdz) to upload."];
  if (!title) errors.title = ["Enter a title for the tree."];
  if (Object.keys(errors).length) return { ok: false, errors, values };
  const body = new FormData();
  body.set("file", file as File, (file as File).name);
  body.set("title", title);
  if (description) body.set("description", description);
  return { ok: true, body, values };
}

/** Sends the upload form's file, title and description to the API as the member. */
export async function uploadTree(context: Context, form: FormData): Promise<UploadResult> {
  const upload = readTreeUpload(form);
  const { values } = upload;
  if (!upload.ok) return { ok: false, intent: "upload", errors: upload.errors, values };
  const { body } = upload;
  const title = values.title;
  const auth = getAuth(context);
  const done = await memberCall<{ tree: Tree; warnings?: string[]; warning_count?: number }>(auth, form, { method: "POST", path: "/api/trees/uploads", body });
  if (!done.ok) return { ...formFailure(done), intent: "upload", values };
  const answer = done.body;
  return {
    ok: true,
    intent: "upload",
    tree: answer?.tree,
    warnings: answer?.warnings ?? [],
    warningCount: answer?.warning_count ?? 0,
    message: `Uploaded “${answer?.tree?.title ?? title}”. It stays unpublished until an editor publishes it.`,
  };
}

/** Deletes one of the member's own unpublished uploads (the API also lets editors and admins). */
export async function deleteTree(context: Context, form: FormData): Promise<FormResult> {
  const slug = text(form, "slug");
  const title = text(form, "title").slice(0, 200) || slug;
  if (!/^[a-z0-9-]+$/.test(slug)) return { ok: false, intent: "delete", target: slug, message: "Unknown action." };
  const done = await memberCall(getAuth(context), form, { method: "DELETE", path: `/api/trees/${slug}`, expect: [204] });
  if (!done.ok) return { ...formFailure(done), intent: "delete", target: slug };
  return { ok: true, intent: "delete", target: slug, message: `Deleted “${title}”.` };
}
