// The membership pages' calls to the Go API (docs/membership.md, "JSON API"), as the
// visitor: reads for the loaders, and one function per form for the actions.
import type { RouterContextProvider } from "react-router";
import { getAuth, formFailure, memberCall, memberRead, text } from "../auth/index.server";
import { hasScope } from "../auth";
import type { FormResult } from "../../lib/form-result";
import { joinRequestFromForm } from "./join-form";
import { parseMoney } from "./money";
import { type ConcessionRow, formErrors, planBodyFromForm } from "./plan-form";
import type { GiftAid, ImportReport, Membership, MemberDetail, MemberList, MyMembership, Plan, PlanList } from "./types";

type Context = Readonly<RouterContextProvider>;

export interface MembershipResult extends FormResult {
  membership?: Membership;
  /** Stripe Checkout's page, where the browser goes next. */
  checkoutUrl?: string | null;
  /** The Customer Portal's page. */
  portalUrl?: string;
  report?: ImportReport;
  /** The CSV of a dry run, sent back with the confirmation. */
  csv?: string;
}

export async function loadPlans(context: Context): Promise<PlanList | null> {
  return memberRead<PlanList>(getAuth(context), "/api/membership/plans");
}

export async function loadPlan(context: Context, slug: string): Promise<Plan | null> {
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(slug)) return null;
  return memberRead<Plan>(getAuth(context), `/api/membership/plans/${slug}`);
}

export async function loadMine(context: Context): Promise<MyMembership | null> {
  const auth = getAuth(context);
  if (!auth.state.loggedIn) return null;
  return memberRead<MyMembership>(auth, "/api/membership");
}


export function isAdmin(context: Context): boolean {
  const user = getAuth(context).state.user;
  return Boolean(user && (user.role === "admin" || hasScope(user, "admin")));
}

/** The Gift Aid declaration's wording (the API's, with the society's name) and the member's declaration. */
export async function loadGiftAid(context: Context): Promise<GiftAid | null> {
  const auth = getAuth(context);
  if (!auth.state.loggedIn) return null;
  return memberRead<GiftAid>(auth, "/api/membership/gift-aid");
}

export async function join(context: Context, form: FormData, plan: Plan): Promise<MembershipResult> {
  const intent = "join";
  const { request, values } = joinRequestFromForm(form, plan);
  const done = await memberCall<{ membership: Membership; checkout_url: string | null }>(getAuth(context), form, {
    method: "POST",
    path: "/api/membership/join",
    json: request,
    expect: [200, 201, 409],
  });
  if (!done.ok) return { ...formFailure(done), intent, values };
  // 409: a member already (the API names the membership and its status).
  if (done.status === 409) {
    const message = (done.body as { message?: string } | null)?.message ?? "You are a member already.";
    return { ok: false, intent, message, values };
  }
  return { ok: true, intent, membership: done.body?.membership, checkoutUrl: done.body?.checkout_url ?? null };
}

type Handler = (context: Context, form: FormData, intent: string) => Promise<MembershipResult>;

/** The forms of /user-account/membership. */
export const accountHandlers: Record<string, Handler> = {
  async "cancel-renewal"(context, form, intent) {
    const done = await memberCall<Membership>(getAuth(context), form, { method: "POST", path: "/api/membership/cancel-renewal" });
    if (!done.ok) return { ...formFailure(done), intent };
    return { ok: true, intent, message: "Your membership will not renew. It stays open until its paid-until date." };
  },

  async renew(context, form, intent) {
    const done = await memberCall<{ membership: Membership; checkout_url: string | null }>(getAuth(context), form, {
      method: "POST",
      path: "/api/membership/renew",
      json: {},
      expect: [200, 409],
    });
    if (!done.ok) return { ...formFailure(done), intent };
    // 409: nothing to pay now (the API says why: renews by itself, never lapses, card payments off…).
    if (done.status === 409) {
      const message = (done.body as { message?: string } | null)?.message ?? "Your membership cannot be renewed online just now.";
      return { ok: false, intent, message };
    }
    const url = done.body?.checkout_url;
    if (!url || !/^https:\/\//.test(url)) return { ok: false, intent, message: "Card payments cannot be taken online just now." };
    return { ok: true, intent, checkoutUrl: url };
  },

  async "marketing-consent"(context, form, intent) {
    const given = text(form, "given") === "true";
    const done = await memberCall(getAuth(context), form, {
      method: "POST",
      path: "/api/membership/marketing-consent",
      json: { given, source: "/user-account/membership" },
    });
    if (!done.ok) return { ...formFailure(done), intent };
    return { ok: true, intent, message: given ? "We will email you the society’s news." : "We will not email you the society’s news any more." };
  },

  async portal(context, form, intent) {
    const done = await memberCall<{ url: string }>(getAuth(context), form, { method: "POST", path: "/api/membership/portal" });
    if (!done.ok) return { ...formFailure(done), intent };
    const url = done.body?.url;
    if (!url || !/^https:\/\//.test(url)) return { ok: false, intent, message: "Card payments cannot be managed online just now." };
    return { ok: true, intent, portalUrl: url };
  },

  async "household-add"(context, form, intent) {
    const name = text(form, "name").trim();
    const email = text(form, "email").trim();
    const done = await memberCall<Membership>(getAuth(context), form, { method: "POST", path: "/api/membership/household", json: { name, email } });
    if (!done.ok) return { ...formFailure(done), intent, values: { name, email } };
    return { ok: true, intent, message: `Invited ${name} to share your membership.` };
  },

  async "household-remove"(context, form, intent) {
    const id = text(form, "id");
    if (!/^\d+$/.test(id)) return { ok: false, intent, message: "Something was missing from the form. Please reload the page and try again." };
    const done = await memberCall<Membership>(getAuth(context), form, { method: "DELETE", path: `/api/membership/household/${id}` });
    if (!done.ok) return { ...formFailure(done), intent, target: id };
    return { ok: true, intent, target: id, message: `Removed ${text(form, "name")} from your membership.` };
  },

  async "gift-aid-cancel"(context, form, intent) {
    const done = await memberCall(getAuth(context), form, { method: "POST", path: "/api/membership/gift-aid/cancel" });
    if (!done.ok) return { ...formFailure(done), intent };
    return { ok: true, intent, message: "Your Gift Aid declaration is cancelled. We will not claim Gift Aid on payments from now on." };
  },
};

export async function loadMembers(context: Context, url: URL): Promise<MemberList | null> {
  const params = new URLSearchParams();
  for (const name of ["q", "status", "page"]) {
    const v = url.searchParams.get(name)?.trim();
    if (v) params.set(name, v);
  }
  const query = params.toString();
  return memberRead<MemberList>(getAuth(context), `/api/admin/members${query ? `?${query}` : ""}`);
}

export async function loadMember(context: Context, id: string): Promise<MemberDetail | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  return memberRead<MemberDetail>(getAuth(context), `/api/admin/members/${id}`);
}

export async function loadAllPlans(context: Context): Promise<Plan[]> {
  const body = await memberRead<{ plans: Plan[] }>(getAuth(context), "/api/admin/membership/plans");
  return body?.plans ?? [];
}

/** The forms of an admin's member page (/admin/members/:id). */
export function memberHandlers(id: string, detail: MemberDetail): Record<string, Handler> {
  const base = `/api/admin/members/${id}`;
  return {
    async payment(context, form, intent) {
      const amount = text(form, "amount");
      const paidUntil = text(form, "paid_until").trim();
      const note = text(form, "note").trim();
      const values = { amount, paid_until: paidUntil, note };
      const currency = detail.plan.currency || "GBP";
      const parsed = parseMoney(amount, currency);
      if (!parsed.ok) return { ok: false, intent, errors: { amount: [parsed.message] }, values };
      const json: Record<string, unknown> = { amount_minor: parsed.minor, currency, method: "manual", note };
      if (paidUntil) json.paid_until = paidUntil;
      const done = await memberCall<Membership>(getAuth(context), form, { method: "POST", path: `${base}/payments`, json });
      if (!done.ok) {
        const result = formFailure(done);
        // The API names the amount in minor units; the form asks in pounds and pence.
        if (result.errors?.amount_minor) result.errors = { ...result.errors, amount: result.errors.amount_minor };
        return { ...result, intent, values };
      }
      return { ok: true, intent, message: `Recorded a payment of ${amount.trim()} for membership ${detail.number}.` };
    },

    async complimentary(context, form, intent) {
      const plan = text(form, "plan");
      const until = text(form, "until").trim();
      const why = text(form, "why").trim();
      const done = await memberCall<Membership>(getAuth(context), form, { method: "POST", path: `${base}/complimentary`, json: { plan, until, why } });
      if (!done.ok) return { ...formFailure(done), intent, values: { plan, until, why } };
      return { ok: true, intent, message: "Granted a complimentary membership." };
    },

    async plan(context, form, intent) {
      const plan = text(form, "plan");
      const why = text(form, "why").trim();
      const done = await memberCall<Membership>(getAuth(context), form, { method: "POST", path: `${base}/plan`, json: { plan, why } });
      if (!done.ok) return { ...formFailure(done), intent, values: { plan, why } };
      return { ok: true, intent, message: `Changed the plan to ${done.body?.plan.name ?? plan}.` };
    },
  };
}

/** The largest CSV the import form sends (the API's own limit, docs/membership.md). */
export const MAX_IMPORT_BYTES = 8 << 20;

/** Imports a members CSV: a dry run first (file upload), then the same text confirmed. */
export async function importMembers(context: Context, form: FormData): Promise<MembershipResult> {
  const confirm = text(form, "intent") === "import-confirm";
  const intent = confirm ? "import-confirm" : "import";
  let csv = "";
  if (confirm) {
    csv = text(form, "csv");
  } else {
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) return { ok: false, intent, errors: { file: ["Choose a CSV file of members."] } };
    if (file.size > MAX_IMPORT_BYTES) return { ok: false, intent, errors: { file: ["A members CSV may be at most 8 MiB."] } };
    csv = await file.text();
  }
  if (!csv) return { ok: false, intent, message: "Something was missing from the form. Please upload the file again." };
  const done = await memberCall<ImportReport>(getAuth(context), form, {
    method: "POST",
    path: `/api/admin/members/import${confirm ? "" : "?dry_run=1"}`,
    text: { body: csv, contentType: "text/csv" },
    expect: [200, 422],
  });
  if (!done.ok) return { ...formFailure(done), intent };
  const body = (done.body ?? {}) as ImportReport & { message?: string };
  if (!Array.isArray(body.errors) && done.status === 422) {
    return { ok: false, intent, message: body.message ?? "The file could not be read: nothing was imported." };
  }
  const report: ImportReport = { ...body, errors: body.errors ?? [] };
  if (report.errors!.length) return { ok: false, intent, report, message: "The file has errors: nothing was imported." };
  return { ok: true, intent, report, csv: confirm ? undefined : csv };
}

/**
 * Creates (no slug) or updates (slug) a plan from the admins' plan form. The form's own
 * checks (prices in pounds and pence, whole numbers) come first; then the API's 422
 * field errors go back under the form's field names.
 */
export async function savePlan(context: Context, form: FormData, slug?: string): Promise<MembershipResult & { concessionRows?: ConcessionRow[]; saved?: Plan }> {
  const intent = "plan";
  const { body, errors, values, concessions } = planBodyFromForm(form, slug);
  if (!body) return { ok: false, intent, errors, values, concessionRows: concessions };
  const done = await memberCall<Plan>(getAuth(context), form, {
    method: slug ? "PUT" : "POST",
    path: slug ? `/api/admin/membership/plans/${encodeURIComponent(slug)}` : "/api/admin/membership/plans",
    json: body,
  });
  if (!done.ok) {
    const refused = formFailure(done);
    return { ...refused, errors: formErrors(refused.errors), intent, values, concessionRows: concessions };
  }
  return { ok: true, intent, saved: done.body ?? undefined };
}
