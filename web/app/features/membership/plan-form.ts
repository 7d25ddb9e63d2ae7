// The plan form of /admin/members/plans: its field names, the body it becomes
// (POST/PUT /api/admin/membership/plans[/{slug}]) and the values it starts from. Prices
// are typed in pounds and pence and go through parseMoney, never a float; the API
// checks everything else and its 422 errors are keyed by these field names (price_minor
// is shown next to "price", a concession's price next to its row).
import { minorDigits, minorToDecimal, parseMoney } from "./money";
import type { Plan } from "./types";

export const PERIODS = ["annual", "monthly", "lifetime", "fixed"] as const;

/** Every field of the form in the order it shows them (for the error summary and focus). */
export const PLAN_FIELDS = [
  "name",
  "slug",
  "price",
  "currency",
  "period",
  "renew_month",
  "renew_day",
  "benefits",
  "scopes",
  "household_size",
  "concessions",
  "on_sale",
  "grace_days",
] as const;

export interface ConcessionRow {
  name: string;
  slug: string;
  price: string;
}

export interface PlanBody {
  slug: string;
  name: string;
  price_minor: number;
  currency: string;
  period: string;
  renew_month: number;
  renew_day: number;
  benefits: string;
  scopes: string[];
  household_size: number;
  concessions: { slug: string; name: string; price_minor: number }[];
  on_sale: boolean;
  grace_days: number;
}

type Form = Pick<FormData, "get" | "keys">;

const field = (form: Form, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v.trim() : "";
};

/** Scopes typed comma-separated or one per line: "member, member:overseas" → ["member", "member:overseas"]. */
export function parseScopes(input: string): string[] {
  return input
    .split(/[,\n\r]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The concession rows posted (concessions.N.name/slug/price), in order; rows left wholly empty are dropped. */
export function concessionRows(form: Form): ConcessionRow[] {
  const indexes = new Set<number>();
  for (const key of form.keys()) {
    const m = /^concessions\.(\d{1,3})\.(name|slug|price)$/.exec(key);
    if (m) indexes.add(Number(m[1]));
  }
  return [...indexes]
    .sort((a, b) => a - b)
    .map((i) => ({ name: field(form, `concessions.${i}.name`), slug: field(form, `concessions.${i}.slug`), price: field(form, `concessions.${i}.price`) }))
    .filter((r) => r.name || r.slug || r.price);
}

/** A whole number typed in a field; "" is 0 (the API's default), anything else not digits is an error. */
function wholeNumber(input: string): number | null {
  if (input === "") return 0;
  if (!/^\d{1,6}$/.test(input)) return null;
  return Number(input);
}

export interface PlanFormResult {
  /** The body to send when the form has no errors of its own. */
  body: PlanBody | null;
  errors: Record<string, string[]>;
  /** The typed values, to put back in the fields. */
  values: Record<string, string>;
  concessions: ConcessionRow[];
}

/**
 * The API body for the form's values. The form checks only what it must turn into
 * numbers (prices, counts, days); the API checks the rest. slug is the plan's being
 * edited when given (the API never changes a slug).
 */
export function planBodyFromForm(form: Form, slug?: string): PlanFormResult {
  const values: Record<string, string> = {};
  for (const name of PLAN_FIELDS) if (name !== "concessions" && name !== "on_sale") values[name] = field(form, name);
  if (slug) values.slug = slug;
  values.on_sale = form.get("on_sale") ? "on" : "";
  const errors: Record<string, string[]> = {};
  const currency = (values.currency || "GBP").toUpperCase();

  let priceMinor = 0;
  if (values.price === "") errors.price = ["Enter the price, such as 24.00."];
  else {
    const p = parseMoney(values.price, currency);
    if (p.ok) priceMinor = p.minor;
    else errors.price = [p.message];
  }

  const numbers: Record<string, number> = {};
  for (const [name, message] of [
    ["renew_month", "Choose the month it renews in."],
    ["renew_day", "Enter the day of the month as a whole number, 1 to 28."],
    ["household_size", "Enter how many people as a whole number."],
    ["grace_days", "Enter the grace period as a whole number of days."],
  ] as const) {
    const n = wholeNumber(values[name]!);
    if (n === null) errors[name] = [message];
    else numbers[name] = n;
  }

  const rows = concessionRows(form);
  const concessions: PlanBody["concessions"] = [];
  for (const row of rows) {
    const p = parseMoney(row.price, currency);
    if (!p.ok) {
      errors.concessions = [...(errors.concessions ?? []), `${row.name || "A concession"}: ${row.price === "" ? "enter its price." : p.message}`];
      continue;
    }
    concessions.push({ slug: row.slug, name: row.name, price_minor: p.minor });
  }

  if (Object.keys(errors).length) return { body: null, errors, values, concessions: rows };
  const fixed = values.period === "fixed";
  return {
    body: {
      slug: slug ?? values.slug!,
      name: values.name!,
      price_minor: priceMinor,
      currency,
      period: values.period!,
      renew_month: fixed ? numbers.renew_month! : 0,
      renew_day: fixed ? numbers.renew_day! : 0,
      benefits: form.get("benefits")?.toString() ?? "",
      scopes: parseScopes(values.scopes!),
      household_size: numbers.household_size!,
      concessions,
      on_sale: values.on_sale === "on",
      grace_days: numbers.grace_days!,
    },
    errors,
    values,
    concessions: rows,
  };
}

/** The API's field errors under the form's names (price_minor is typed as "price"). */
export function formErrors(api: Record<string, string[]> | undefined): Record<string, string[]> | undefined {
  if (!api) return api;
  const out: Record<string, string[]> = {};
  for (const [name, messages] of Object.entries(api)) {
    const key = name === "price_minor" ? "price" : /^concessions\b/.test(name) ? "concessions" : name;
    out[key] = [...(out[key] ?? []), ...messages];
  }
  return out;
}

/** A stored plan as the form's starting values (a new plan: the API's defaults). */
export function planFormValues(plan: Plan | null): { values: Record<string, string>; concessions: ConcessionRow[] } {
  if (!plan) {
    return {
      values: { name: "", slug: "", price: "", currency: "GBP", period: "annual", renew_month: "", renew_day: "", benefits: "", scopes: "member", household_size: "1", on_sale: "", grace_days: "30" },
      concessions: [],
    };
  }
  const currency = plan.currency || "GBP";
  const digits = minorDigits(currency);
  return {
    values: {
      name: plan.name,
      slug: plan.slug,
      price: minorToDecimal(plan.price_minor, digits),
      currency,
      period: plan.period,
      renew_month: plan.renew_month ? String(plan.renew_month) : "",
      renew_day: plan.renew_day ? String(plan.renew_day) : "",
      benefits: plan.benefits ?? "",
      scopes: (plan.scopes ?? []).join(", "),
      household_size: String(plan.household_size || 1),
      on_sale: plan.on_sale ? "on" : "",
      grace_days: String(plan.grace_days),
    },
    concessions: (plan.concessions ?? []).map((c) => ({ name: c.name, slug: c.slug, price: minorToDecimal(c.price_minor, digits) })),
  };
}
