// The newsletter pages' calls to the Go API (docs/newsletter.md, "JSON API"): sign-up,
// confirmation and preferences (no session needed: the link's token is the proof), the
// member's own subscriptions and alerts, the public archive, and the editors' editions.
import type { RouterContextProvider } from "react-router";
import { formFailure, getAuth, memberCall, memberRead, text, type AuthSession } from "../auth/index.server";
import { hasScope } from "../auth";
import type { ApiFailure, ApiResult } from "../../lib/api-result";
import { callApi, failureText, getApi } from "../../lib/api.server";
import type { FormResult } from "../../lib/form-result";
import { parseAlertChoice, type AlertChoice } from "./alerts";
import { editionRequest, type EditionRequest } from "./edition";
import { listRequest } from "./lists";
import { signupRequest, tickedLists } from "./signup";
import type {
  Alert,
  ArchivedEdition,
  ArchivedEditionSummary,
  Confirmation,
  Edition,
  EditionPreview,
  NewsletterDocument,
  NewsletterList,
  Preferences,
  Recipient,
} from "./types";

type Context = Readonly<RouterContextProvider>;
type Wrapped<T> = { data: T[] };

/** A call that succeeded without the body it should have is a failure like any other. */
const failureOf = <T>(done: ApiResult<T | null>): ApiFailure => (done.ok ? { ok: false, status: 502, errors: {} } : done);

export interface NewsletterResult extends FormResult {
  /** The lists the subscriber now receives (preferences, the account, a confirmation). */
  preferences?: Preferences;
  /** After a confirmation: the link to the subscriber's preferences page. */
  preferencesToken?: string;
  /** "pending": a confirmation email was sent; "subscribed": no confirmation was needed. */
  status?: "pending" | "subscribed";
  edition?: Edition;
}

/** A call that needs no session (the token in a link, or a visitor's sign-up); failures are logged. */
async function publicCall<T>(auth: AuthSession, method: string, path: string, json: unknown, expect: number[]): Promise<ApiResult<T | null>> {
  const done = await callApi<T>(auth.api, method, path, { session: false, json, expect });
  if (!done.ok && (done.status === 0 || done.status >= 500)) auth.log.error(`[newsletter] ${failureText(`${method} ${path.replace(/\?.*$/, "")}`, done)}`);
  return done;
}

// The public lists change rarely and every page's footer shows them: kept for a while
// so that pages do not each ask the API.
const LISTS_TTL_MS = 30_000;
let listsCache: { at: number; lists: NewsletterList[] } | null = null;

/** The lists anyone may see (the sign-up forms pick what the visitor may tick); null when unavailable. */
export async function signupLists(context: Context, now = Date.now()): Promise<NewsletterList[] | null> {
  if (listsCache && now - listsCache.at < LISTS_TTL_MS) return listsCache.lists;
  const auth = getAuth(context);
  const done = await getApi<Wrapped<NewsletterList>>(auth.api, "/api/newsletter/lists", { session: false });
  if (!done.ok || !Array.isArray(done.body.data)) {
    auth.log.error(`[newsletter] ${failureText("GET /api/newsletter/lists", done.ok ? { ok: false, status: 200, errors: {} } : done)}`);
    return listsCache?.lists ?? null;
  }
  listsCache = { at: now, lists: done.body.data };
  return done.body.data;
}

/**
 * A sign-up from any of the forms (footer, content slice, the sign-up page). A
 * signed-in member's call carries their session, so the API can tell their own
 * verified address needs no confirmation; anyone else's is stateless.
 */
export async function subscribe(context: Context, form: FormData): Promise<NewsletterResult> {
  const intent = "newsletter-signup";
  const request = signupRequest(form);
  const values = { email: request.email, lists: request.lists.join(","), source: request.source };
  const auth = getAuth(context);
  const done = auth.state.loggedIn
    ? await memberCall<{ status: "pending" | "subscribed"; message: string }>(auth, form, {
        method: "POST",
        path: "/api/newsletter/subscribe",
        json: request,
        expect: [200, 202],
      })
    : await publicCall<{ status: "pending" | "subscribed"; message: string }>(auth, "POST", "/api/newsletter/subscribe", request, [200, 202]);
  if (!done.ok) return { ...formFailure(done), intent, values };
  const status = done.body?.status ?? (done.status === 200 ? "subscribed" : "pending");
  return { ok: true, intent, status, values, message: done.body?.message };
}

/** Confirms a sign-up with the token of the confirmation email's link. */
export async function confirm(context: Context, form: FormData): Promise<NewsletterResult> {
  const intent = "confirm";
  const done = await publicCall<Confirmation>(getAuth(context), "POST", "/api/newsletter/confirm", { token: text(form, "token") }, [200]);
  if (!done.ok || !done.body) return { ...formFailure(failureOf(done)), intent };
  const { email, lists, preferences_token } = done.body;
  return { ok: true, intent, preferences: { email, lists }, preferencesToken: preferences_token };
}

/** A subscriber's lists from the token of a preferences link. */
export async function loadPreferences(context: Context, token: string): Promise<ApiResult<Preferences>> {
  const auth = getAuth(context);
  const done = await getApi<Preferences>(auth.api, `/api/newsletter/preferences?${new URLSearchParams({ token })}`, { session: false });
  if (!done.ok && (done.status === 0 || done.status >= 500)) auth.log.error(`[newsletter] ${failureText("GET /api/newsletter/preferences", done)}`);
  return done;
}

/** The preferences page's forms: the ticked lists, or unsubscribe from everything. */
export async function changePreferences(context: Context, form: FormData): Promise<NewsletterResult> {
  const intent = text(form, "intent");
  const token = text(form, "token");
  const auth = getAuth(context);
  const done =
    intent === "unsubscribe-all"
      ? await publicCall<Preferences>(auth, "POST", "/api/newsletter/unsubscribe", { token }, [200])
      : await publicCall<Preferences>(auth, "PUT", "/api/newsletter/preferences", { token, lists: tickedLists(form) }, [200]);
  if (!done.ok || !done.body) return { ...formFailure(failureOf(done)), intent };
  const now = done.body.lists.filter((l) => l.subscribed);
  const message =
    intent === "unsubscribe-all" || now.length === 0
      ? `You have been unsubscribed. We will not send newsletters to ${done.body.email} any more.`
      : "Your choices have been saved.";
  return { ok: true, intent, preferences: done.body, message };
}

/** The signed-in member's own subscriptions; null when unavailable. */
export async function loadMine(context: Context): Promise<Preferences | null> {
  return memberRead<Preferences>(getAuth(context), "/api/newsletter/me");
}

/** The account area's newsletter form: the ticked lists for the account's address. */
export async function saveMine(context: Context, form: FormData): Promise<NewsletterResult> {
  const intent = "newsletter-mine";
  const { lists, wording } = signupRequest(form);
  const done = await memberCall<Preferences>(getAuth(context), form, {
    method: "PUT",
    path: "/api/newsletter/me",
    json: { lists, source: "/user-account/newsletter", wording },
  });
  if (!done.ok || !done.body) return { ...formFailure(failureOf(done)), intent, values: { lists: lists.join(",") } };
  const now = done.body.lists.filter((l) => l.subscribed).length;
  return {
    ok: true,
    intent,
    preferences: done.body,
    message: now ? "Your newsletter choices have been saved." : "You will not get any of our newsletters.",
  };
}

/** The member's alerts by saved search id; null when unavailable. */
export async function loadAlerts(context: Context): Promise<Record<number, Alert> | null> {
  const body = await memberRead<Wrapped<Alert>>(getAuth(context), "/api/newsletter/alerts");
  if (!body || !Array.isArray(body.data)) return null;
  return Object.fromEntries(body.data.map((a) => [a.saved_search_id, a]));
}

export interface AlertResult extends FormResult {
  choice?: AlertChoice;
}

/** Sets (or turns off) the alert of one saved search. */
export async function setAlert(context: Context, form: FormData): Promise<AlertResult> {
  const intent = "alert";
  const id = text(form, "id");
  const choice = parseAlertChoice(text(form, "frequency"));
  if (!/^\d+$/.test(id)) return { ok: false, intent, message: "Something was missing from the form. Please reload the page and try again." };
  if (!choice) return { ok: false, intent, target: id, errors: { frequency: ["Choose how often to email you."] } };
  const auth = getAuth(context);
  const done =
    choice === "off"
      ? await memberCall(auth, form, { method: "DELETE", path: `/api/newsletter/alerts/${id}`, expect: [204, 404] })
      : await memberCall<Alert>(auth, form, { method: "PUT", path: `/api/newsletter/alerts/${id}`, json: { frequency: choice } });
  if (!done.ok) {
    const failure = formFailure(done);
    // The API names the saved search when it is of a kind alerts do not cover: shown at the choice.
    const errors = failure.errors?.saved_search ? { frequency: failure.errors.saved_search } : failure.errors;
    return { ...failure, errors, intent, target: id, choice };
  }
  return { ok: true, intent, target: id, choice };
}

// --- The public archive

export async function loadArchive(context: Context): Promise<ArchivedEditionSummary[] | null> {
  const auth = getAuth(context);
  const done = await getApi<Wrapped<ArchivedEditionSummary>>(auth.api, "/api/newsletter/editions", { session: false });
  if (!done.ok) {
    auth.log.error(`[newsletter] ${failureText("GET /api/newsletter/editions", done)}`);
    return null;
  }
  return Array.isArray(done.body.data) ? done.body.data : [];
}

/** One archived edition: the edition, null when there is none (404), or "unavailable". */
export async function loadArchivedEdition(context: Context, id: string): Promise<ArchivedEdition | null | "unavailable"> {
  if (!/^\d{1,18}$/.test(id)) return null;
  const auth = getAuth(context);
  const done = await getApi<ArchivedEdition>(auth.api, `/api/newsletter/editions/${id}`, { session: false });
  if (done.ok) return done.body;
  if (done.status === 404) return null;
  auth.log.error(`[newsletter] ${failureText("GET /api/newsletter/editions/{id}", done)}`);
  return "unavailable";
}

// --- Editors

/** Editors and admins compose and send editions (the admin's scope includes the editor's). */
export function isStaff(context: Context): boolean {
  const user = getAuth(context).state.user;
  return Boolean(user && (hasScope(user, "editor") || hasScope(user, "admin")));
}

export async function loadEditions(context: Context): Promise<Edition[] | null> {
  const body = await memberRead<Wrapped<Edition>>(getAuth(context), "/api/admin/newsletter/editions");
  return body && Array.isArray(body.data) ? body.data : null;
}

export async function loadEdition(context: Context, id: string): Promise<Edition | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  return memberRead<Edition>(getAuth(context), `/api/admin/newsletter/editions/${id}`);
}

export async function loadPreview(context: Context, id: number): Promise<EditionPreview | null> {
  return memberRead<EditionPreview>(getAuth(context), `/api/admin/newsletter/editions/${id}/preview`);
}

export async function loadFailedRecipients(context: Context, id: number): Promise<Recipient[] | null> {
  const body = await memberRead<Wrapped<Recipient>>(getAuth(context), `/api/admin/newsletter/editions/${id}/recipients?status=failed`);
  return body && Array.isArray(body.data) ? body.data : null;
}

export async function loadDocuments(context: Context): Promise<NewsletterDocument[] | null> {
  const body = await memberRead<Wrapped<NewsletterDocument>>(getAuth(context), "/api/admin/newsletter/documents");
  return body && Array.isArray(body.data) ? body.data : null;
}

/** Every list, for the editors' choice of list (the public call: editors need not be admins). */
export async function loadAllLists(context: Context): Promise<NewsletterList[] | null> {
  const body = await memberRead<Wrapped<NewsletterList>>(getAuth(context), "/api/newsletter/lists");
  return body && Array.isArray(body.data) ? body.data : null;
}

/** A list as admins see it: with its confirmed subscribers. */
export type AdminList = NewsletterList & { subscribers: number };

export async function loadAdminLists(context: Context): Promise<AdminList[] | null> {
  const body = await memberRead<Wrapped<AdminList>>(getAuth(context), "/api/admin/newsletter/lists");
  return body && Array.isArray(body.data) ? body.data : null;
}

/** Adds a list (intent "list-create") or changes one (intent "list-update", the slug as target). */
export async function saveList(context: Context, form: FormData): Promise<NewsletterResult> {
  const intent = text(form, "intent") === "list-update" ? "list-update" : "list-create";
  const request = listRequest(form);
  const values = { ...request };
  const auth = getAuth(context);
  if (intent === "list-update") {
    const target = request.slug;
    const { slug: _slug, ...changes } = request;
    const done = await memberCall<NewsletterList>(auth, form, { method: "PUT", path: `/api/admin/newsletter/lists/${encodeURIComponent(target)}`, json: changes });
    if (!done.ok) return { ...formFailure(done), intent, target, values };
    return { ok: true, intent, target, message: `Saved the list “${done.body?.name ?? request.name}”.` };
  }
  const done = await memberCall<NewsletterList>(auth, form, { method: "POST", path: "/api/admin/newsletter/lists", json: request, expect: [201] });
  if (!done.ok) return { ...formFailure(done), intent, values };
  return { ok: true, intent, message: `Added the list “${done.body?.name ?? request.name}”.` };
}

const fieldsOf = (request: EditionRequest) => ({ ...request, sections: request.sections.join(",") });

export async function createEdition(context: Context, form: FormData): Promise<NewsletterResult> {
  const intent = "create";
  const request = editionRequest(form);
  const done = await memberCall<Edition>(getAuth(context), form, { method: "POST", path: "/api/admin/newsletter/editions", json: request, expect: [201] });
  if (!done.ok || !done.body) return { ...formFailure(failureOf(done)), intent, values: fieldsOf(request) };
  return { ok: true, intent, edition: done.body, message: "The edition has been created." };
}

export async function updateEdition(context: Context, id: number, form: FormData): Promise<NewsletterResult> {
  const intent = "update";
  const request = editionRequest(form);
  const done = await memberCall<Edition>(getAuth(context), form, { method: "PATCH", path: `/api/admin/newsletter/editions/${id}`, json: request });
  if (!done.ok) return { ...editionFailure(done), intent, values: fieldsOf(request) };
  return { ok: true, intent, edition: done.body ?? undefined, message: "Your changes have been saved." };
}

export async function sendTest(context: Context, id: number, form: FormData): Promise<NewsletterResult> {
  const intent = "test";
  const done = await memberCall<{ message: string }>(getAuth(context), form, { method: "POST", path: `/api/admin/newsletter/editions/${id}/test`, json: {}, expect: [202] });
  if (!done.ok) return { ...editionFailure(done), intent };
  return { ok: true, intent, message: done.body?.message ?? "A test copy is on its way to you." };
}

/** Sends now (`at` null) or schedules at an instant. */
export async function sendEdition(context: Context, id: number, form: FormData, at: Date | null): Promise<NewsletterResult> {
  const intent = at ? "schedule" : "send";
  const done = await memberCall<Edition>(getAuth(context), form, {
    method: "POST",
    path: `/api/admin/newsletter/editions/${id}/send`,
    json: at ? { at: at.toISOString() } : {},
  });
  if (!done.ok) return { ...editionFailure(done), intent };
  return { ok: true, intent, edition: done.body ?? undefined, message: at ? "The edition is scheduled." : "Sending has started." };
}

export async function cancelSchedule(context: Context, id: number, form: FormData): Promise<NewsletterResult> {
  const intent = "cancel";
  const done = await memberCall<Edition>(getAuth(context), form, { method: "POST", path: `/api/admin/newsletter/editions/${id}/cancel` });
  if (!done.ok) return { ...editionFailure(done), intent };
  return { ok: true, intent, edition: done.body ?? undefined, message: "The edition is no longer scheduled. It is a draft again." };
}

/** 409: the edition has moved on (sending or sent); the API says how. */
function editionFailure(failure: ApiFailure): FormResult {
  if (failure.status === 409) return { ok: false, message: failure.message ?? "This edition is being sent or has been sent, so it cannot be changed." };
  return formFailure(failure);
}
