// Calls to the staff tools API (docs/studio-staff.md) as the signed-in editor or admin,
// through the request's auth session. Reads answer null (logged) when they fail, so a
// page can say "cannot be shown just now"; forms get a FormResult with the API's
// messages at their fields.
import type { RouterContextProvider } from "react-router";
import type { FormResult } from "../../lib/form-result";
import { hasScope } from "../auth/index";
import { formFailure, getAuth, memberCall, memberRead, text } from "../auth/index.server";
import { readTreeUpload } from "../trees/index.server";
import { AUDIT_FILTERS, IMPORT_FIELDS, PEOPLE_FILTERS } from "./fields";
import { mappingFromForm } from "./mapping";
import { roleText as roleWord } from "./words";
import type { AuditPage, DryRun, Job, Mapping, PeoplePage, Person, RecordsUpload, SavedMapping, TreeQueue, QueueTree } from "./types";

type Context = Readonly<RouterContextProvider>;

const enc = encodeURIComponent;

/** Whether the signed-in user is an admin (people and the audit log are theirs). */
export function isAdmin(context: Context): boolean {
  return hasScope(getAuth(context).state.user, "admin");
}

/**
 * Refuses anyone not staff with the studio layout's 403, in the screens' own loaders
 * and actions too: a layout's loader runs beside its children's, and not before an
 * action at all.
 */
export function requireStaff(context: Context): void {
  const user = getAuth(context).state.user;
  if (!hasScope(user, "editor") && !hasScope(user, "admin")) {
    throw new Response("The studio is for the society's editors and administrators.", { status: 403, statusText: "Not allowed" });
  }
}

/** The id of the signed-in user (their own row in the people list has no buttons). */
export function myId(context: Context): number | null {
  return getAuth(context).state.user?.id ?? null;
}

/** A 404 page for staff screens a user may not see (as the admin pages answer). */
export function notFound(): Response {
  return new Response("This page could not be found", { status: 404, statusText: "Not Found" });
}

function only(params: URLSearchParams, keys: readonly string[]): string {
  const out = new URLSearchParams();
  for (const key of keys) {
    const v = params.get(key)?.trim();
    if (v) out.set(key, v);
  }
  const s = out.toString();
  return s ? `?${s}` : "";
}

// ---------------------------------------------------------------------------------
// People and the audit log (admins)


export function loadPeople(context: Context, params: URLSearchParams): Promise<PeoplePage | null> {
  return memberRead(getAuth(context), `/api/studio/people${only(params, PEOPLE_FILTERS)}`);
}

export function loadAudit(context: Context, params: URLSearchParams): Promise<AuditPage | null> {
  return memberRead(getAuth(context), `/api/studio/audit${only(params, AUDIT_FILTERS)}`);
}

/** The export's address: the same filters, without the page cursor. */
export function auditCsvPath(params: URLSearchParams): string {
  return `/api/studio/audit.csv${only(params, AUDIT_FILTERS.filter((k) => k !== "before"))}`;
}

export type PersonResult = FormResult & { person?: Person };

/** One of the people list's buttons: change role, disable, enable, send a password reset. */
export async function personAction(context: Context, form: FormData): Promise<PersonResult> {
  const intent = text(form, "intent");
  const id = text(form, "id");
  const name = text(form, "name").slice(0, 200) || "The account";
  const base = { intent, target: id };
  if (!/^\d{1,18}$/.test(id)) return { ...base, ok: false, message: "Unknown account." };
  const auth = getAuth(context);
  const path = `/api/studio/people/${id}`;
  if (intent === "role") {
    const role = text(form, "role");
    const done = await memberCall<{ person: Person }>(auth, form, { method: "PUT", path: `${path}/role`, json: { role } });
    if (!done.ok) return { ...base, ...refusal(done) };
    const person = done.body?.person;
    return { ...base, ok: true, person, message: `${person?.name ?? name}’s role is now “${roleWord(person?.role ?? role)}”.` };
  }
  if (intent === "disable" || intent === "enable") {
    const done = await memberCall<{ person: Person }>(auth, form, { method: "POST", path: `${path}/${intent}` });
    if (!done.ok) return { ...base, ...refusal(done) };
    const person = done.body?.person;
    const who = person?.name ?? name;
    return {
      ...base,
      ok: true,
      person,
      message: intent === "disable" ? `${who} can no longer sign in. They have been signed out everywhere.` : `${who} can sign in again.`,
    };
  }
  if (intent === "reset") {
    const done = await memberCall<{ message?: string }>(auth, form, { method: "POST", path: `${path}/password-reset`, expect: [202] });
    if (!done.ok) return { ...base, ...refusal(done) };
    return { ...base, ok: true, message: done.body?.message ?? `We have emailed ${name} a link to reset the password.` };
  }
  return { ...base, ok: false, message: "Unknown action." };
}

/** A failed call as the form shows it; 403 here means the admin acted on their own account. */
function refusal(done: Parameters<typeof formFailure>[0]): FormResult {
  if (done.status === 403) return { ok: false, message: done.message ?? "You cannot change your own role or disable your own account." };
  const failure = formFailure(done);
  const first = Object.values(failure.errors ?? {})[0]?.[0];
  return { ok: false, errors: failure.errors, message: first ?? failure.message };
}

// ---------------------------------------------------------------------------------
// Records

export function loadUploads(context: Context): Promise<{ uploads: RecordsUpload[] } | null> {
  return memberRead(getAuth(context), "/api/studio/records/uploads");
}

export async function loadUpload(context: Context, id: string): Promise<RecordsUpload | null> {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) return null;
  const r = await memberRead<{ upload: RecordsUpload }>(getAuth(context), `/api/studio/records/uploads/${enc(id)}`);
  return r?.upload ?? null;
}

export async function loadMappings(context: Context): Promise<SavedMapping[]> {
  const r = await memberRead<{ mappings: SavedMapping[] }>(getAuth(context), "/api/studio/records/mappings");
  return r?.mappings ?? [];
}

export async function loadJobs(context: Context, kind: "records" | "scans"): Promise<Job[] | null> {
  const r = await memberRead<{ jobs: Job[] }>(getAuth(context), `/api/studio/jobs?kind=${kind}`);
  return r?.jobs ?? null;
}

export async function loadJob(context: Context, id: string): Promise<Job | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  const r = await memberRead<{ job: Job }>(getAuth(context), `/api/studio/jobs/${id}`);
  return r?.job ?? null;
}

export type UploadResult = FormResult & { upload?: RecordsUpload };

/** Sends the CSV of the upload form; the answer's upload has its columns and a proposed mapping. */
export async function uploadRecords(context: Context, form: FormData): Promise<UploadResult> {
  const intent = "upload";
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0) return { ok: false, intent, errors: { file: ["Choose a CSV file to upload."] } };
  const body = new FormData();
  body.set("file", file, file.name);
  const done = await memberCall<{ upload: RecordsUpload }>(getAuth(context), form, { method: "POST", path: "/api/studio/records/uploads", body, expect: [201] });
  if (!done.ok) return { ...formFailure(done), intent };
  return { ok: true, intent, upload: done.body?.upload };
}

export async function deleteUpload(context: Context, form: FormData): Promise<FormResult> {
  const id = text(form, "id");
  const intent = "delete";
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) return { ok: false, intent, target: id, message: "Unknown upload." };
  const done = await memberCall(getAuth(context), form, { method: "DELETE", path: `/api/studio/records/uploads/${enc(id)}`, expect: [204] });
  if (!done.ok) return { ...formFailure(done), intent, target: id };
  return { ok: true, intent, target: id, message: `Removed “${text(form, "filename").slice(0, 200) || "the file"}”.` };
}


/** Forgets a saved matching (the files already imported keep their records). */
export async function deleteMapping(context: Context, form: FormData): Promise<FormResult> {
  const name = text(form, "name");
  const intent = "delete-mapping";
  if (!name || name.length > 100) return { ok: false, intent, target: name, message: "Unknown matching." };
  const done = await memberCall(getAuth(context), form, { method: "DELETE", path: `/api/studio/records/mappings/${enc(name)}`, expect: [204] });
  if (!done.ok) return { ...formFailure(done), intent, target: name };
  return { ok: true, intent, target: name, message: `Forgot the matching “${name}”.` };
}

export type RecordsFormResult = FormResult & { dryRun?: DryRun; job?: Job; mapping?: Mapping };

/**
 * The mapping editor's two buttons: "Check the file" (a dry run; nothing is imported)
 * and "Import". Errors the form can see come first (a required field without a column);
 * then the API's, under the form's names (`mapping` on the whole editor).
 */
export async function recordsAction(context: Context, upload: RecordsUpload, base: Mapping, form: FormData): Promise<RecordsFormResult> {
  const intent = text(form, "intent") === "import" ? "import" : "dry-run";
  const { mapping, errors, values } = mappingFromForm(form, upload.canonical, upload.columns, base);
  for (const key of IMPORT_FIELDS) values[key] = text(form, key).trim();
  const collection = values.collection;
  if (intent === "import" && !collection) errors.collection = ["Give the collection a short name, such as parish-1851."];
  if (Object.keys(errors).length) return { ok: false, intent, errors, values };
  const auth = getAuth(context);
  const path = `/api/studio/records/uploads/${enc(upload.id)}`;
  if (intent === "dry-run") {
    const done = await memberCall<{ dry_run: DryRun }>(auth, form, { method: "POST", path: `${path}/dry-run`, json: { mapping, ...(collection ? { collection } : {}) }, expect: [200] });
    if (!done.ok) return { ...formFailure(done), intent, values };
    return { ok: true, intent, values, mapping, dryRun: done.body?.dry_run };
  }
  const json: Record<string, unknown> = { mapping, collection };
  for (const key of ["title", "kind", "access", "save_mapping_as"] as const) if (values[key]) json[key] = values[key];
  const done = await memberCall<{ job: Job }>(auth, form, { method: "POST", path: `${path}/import`, json, expect: [202] });
  if (!done.ok) {
    if (done.status === 409) return { ok: false, intent, values, message: "This file is already being imported. Open the import below to follow it." };
    return { ...formFailure(done), intent, values };
  }
  return { ok: true, intent, values, job: done.body?.job };
}

export async function cancelJob(context: Context, form: FormData): Promise<FormResult> {
  const id = text(form, "id");
  if (!/^\d{1,18}$/.test(id)) return { ok: false, intent: "cancel", message: "Unknown import." };
  const done = await memberCall<{ job: Job }>(getAuth(context), form, { method: "POST", path: `/api/studio/jobs/${id}/cancel`, expect: [202] });
  if (!done.ok) {
    if (done.status === 409) return { ok: false, intent: "cancel", message: "The import had already finished." };
    return { ...formFailure(done), intent: "cancel" };
  }
  return { ok: true, intent: "cancel", message: "Stopping the import. Nothing it loaded will be kept." };
}

// ---------------------------------------------------------------------------------
// Scans


export type ScansResult = FormResult & { job?: Job };

/** The file names the scans API takes (JPEG, PNG, TIFF). */
const SCAN_NAME = /\.(jpe?g|png|tiff?)$/i;

/** The scans form: images, where they go, and how they are attached. */
export async function uploadScans(context: Context, form: FormData): Promise<ScansResult> {
  const intent = "scans";
  const chosen = form.getAll("files").filter((f): f is File => f instanceof File && f.size > 0);
  // A folder brings whatever else it holds too (notes, thumbnails' databases): only its
  // images are sent, by their own names.
  const fromFolder = form.getAll("folder").filter((f): f is File => f instanceof File && f.size > 0 && SCAN_NAME.test(f.name));
  const files = [...chosen, ...fromFolder];
  const attach = text(form, "attach");
  const values: Record<string, string> = {};
  for (const key of ["collection", "attach", "record", "record_id", "person", "access"]) values[key] = text(form, key).trim();
  const errors: Record<string, string[]> = {};
  if (!files.length) errors.files = ["Choose one or more scans, or a folder of them (JPEG, PNG or TIFF images)."];
  if (!values.collection) errors.collection = ["Choose the collection the scans belong to."];
  const manifest = form.get("manifest");
  const hasManifest = manifest instanceof File && manifest.size > 0;
  if (attach === "manifest" && !hasManifest) errors.manifest = ["Choose the list of scans (a CSV file)."];
  if (attach === "record" && !values.record && !values.record_id) errors.record = ["Type the record’s reference or number."];
  if (attach === "person" && !values.person) errors.person = ["Type the person as tree:id, for example smith-family:I12."];
  if (Object.keys(errors).length) return { ok: false, intent, errors, values };
  const body = new FormData();
  for (const f of files) body.append("files", f, f.name.split(/[\\/]/).pop() ?? f.name);
  body.set("collection", values.collection);
  if (values.access) body.set("access", values.access);
  if (attach === "manifest") body.set("manifest", manifest as File, (manifest as File).name);
  else if (attach === "record") {
    if (values.record_id) body.set("record_id", values.record_id);
    else body.set("record", values.record);
  } else if (attach === "person") body.set("person", values.person);
  const done = await memberCall<{ job: Job }>(getAuth(context), form, { method: "POST", path: "/api/studio/scans/uploads", body, expect: [202] });
  if (!done.ok) return { ...formFailure(done), intent, values };
  return { ok: true, intent, values, job: done.body?.job };
}

// ---------------------------------------------------------------------------------
// Trees


export function loadTreeQueue(context: Context, state: string): Promise<TreeQueue | null> {
  return memberRead(getAuth(context), `/api/studio/trees?state=${enc(state)}`);
}

export type TreeResult = FormResult & { tree?: QueueTree; warnings?: string[]; warningCount?: number };

export async function treeAction(context: Context, form: FormData): Promise<TreeResult> {
  const intent = text(form, "intent");
  const slug = text(form, "slug");
  const title = text(form, "title").slice(0, 200) || slug;
  if (intent === "upload") return uploadTree(context, form);
  if (!/^[a-z0-9-]{1,200}$/.test(slug) || (intent !== "publish" && intent !== "unpublish")) return { ok: false, intent, target: slug, message: "Unknown action." };
  const done = await memberCall<{ tree: QueueTree }>(getAuth(context), form, { method: "POST", path: `/api/studio/trees/${slug}/${intent}`, expect: [200] });
  if (!done.ok) return { ...formFailure(done), intent, target: slug };
  const name = done.body?.tree?.title ?? title;
  return { ok: true, intent, target: slug, message: intent === "publish" ? `Published “${name}”.` : `Unpublished “${name}”.` };
}

async function uploadTree(context: Context, form: FormData): Promise<TreeResult> {
  const intent = "upload";
  const upload = readTreeUpload(form);
  const { values } = upload;
  if (!upload.ok) return { ok: false, intent, errors: upload.errors, values };
  const { body } = upload;
  const title = values.title;
  const done = await memberCall<{ tree: QueueTree; warnings?: string[]; warning_count?: number }>(getAuth(context), form, {
    method: "POST",
    path: "/api/studio/trees/uploads",
    body,
  });
  if (!done.ok) return { ...formFailure(done), intent, values };
  const tree = done.body?.tree;
  return {
    ok: true,
    intent,
    tree,
    warnings: done.body?.warnings ?? [],
    warningCount: done.body?.warning_count ?? 0,
    message: `Uploaded “${tree?.title ?? title}”. It waits below until you publish it.`,
  };
}
