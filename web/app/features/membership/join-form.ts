// The join (or renew) form of /subscribe/{slug}: its field names, the Gift Aid
// declaration, and the request it becomes (POST /api/membership/join). The field names
// are the API's error keys ("household.0.email", "gift_aid.postcode"), so the API's 422
// errors land next to the fields that caused them.
import { validRedirect } from "../../lib/auth/redirect";
import type { FieldErrors } from "../../lib/form-result";
import type { Plan } from "./types";

export const GIFT_AID_FIELDS = ["title", "first_name", "last_name", "house", "postcode", "address"] as const;

/** The HMRC model declaration for a membership subscription, with the society's name. */
export function giftAidDeclaration(society: string): string {
  return (
    `I want to Gift Aid my membership subscription and any donations I make in the future or have made in the past 4 years to ${society}. ` +
    "I am a UK taxpayer and understand that if I pay less Income Tax and/or Capital Gains Tax than the amount of Gift Aid claimed " +
    "on all my donations in that tax year it is my responsibility to pay any difference."
  );
}

/** Gift Aid is a UK tax relief: offered for plans paid in pounds. */
export function offersGiftAid(plan: Pick<Plan, "currency">): boolean {
  return (plan.currency || "GBP").toUpperCase() === "GBP";
}

/** How many other people the plan's form asks for (household_size − 1). */
export function householdSlots(plan: Pick<Plan, "household_size">): number {
  return Math.max(0, (plan.household_size || 1) - 1);
}

/** Every field of the form in the order it shows them (for the error summary and focus). */
export function joinFields(plan: Plan): string[] {
  const fields = ["concession"];
  for (let i = 0; i < householdSlots(plan); i++) fields.push(`household.${i}.name`, `household.${i}.email`);
  if (offersGiftAid(plan)) fields.push("gift_aid", ...GIFT_AID_FIELDS.map((f) => `gift_aid.${f}`));
  fields.push("marketing_consent");
  return fields;
}

export interface JoinRequest {
  plan: string;
  concession: string;
  household: { name: string; email: string }[];
  gift_aid: { declared: true; wording: string; title: string; first_name: string; last_name: string; house: string; postcode: string; address: string } | null;
  marketing_consent: boolean;
  return_to: string;
}

type Form = Pick<FormData, "get">;

const field = (form: Form, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v.trim() : "";
};

// A UK postcode, loosely: HMRC's claim schedule wants one, and a typo caught here is
// a claim line not rejected later.
const POSTCODE = /^[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}$/i;

/**
 * The join request for the form's values, or the errors to show first. The API
 * validates everything again; this catches what only the form knows (a half-filled
 * household row, a Gift Aid declaration without the address HMRC needs).
 */
export function joinRequestFromForm(form: Form, plan: Plan, society: string): { request: JoinRequest; errors: FieldErrors; values: Record<string, string> } {
  const errors: FieldErrors = {};
  const values: Record<string, string> = {};
  const add = (name: string, message: string) => (errors[name] ??= []).push(message);

  const concession = field(form, "concession");
  values.concession = concession;
  if (concession && !plan.concessions.some((c) => c.slug === concession)) add("concession", "Choose one of the plan’s prices.");

  const household: JoinRequest["household"] = [];
  for (let i = 0; i < householdSlots(plan); i++) {
    const name = field(form, `household.${i}.name`);
    const email = field(form, `household.${i}.email`);
    values[`household.${i}.name`] = name;
    values[`household.${i}.email`] = email;
    if (!name && !email) continue;
    if (!name) add(`household.${i}.name`, "Enter the name of this person, or leave both boxes empty.");
    if (!email) add(`household.${i}.email`, "Enter the email address of this person, or leave both boxes empty.");
    household.push({ name, email });
  }

  let giftAid: JoinRequest["gift_aid"] = null;
  const declared = offersGiftAid(plan) && form.get("gift_aid") === "on";
  if (declared) {
    values.gift_aid = "on";
    const g = Object.fromEntries(GIFT_AID_FIELDS.map((f) => [f, field(form, `gift_aid.${f}`)])) as Record<(typeof GIFT_AID_FIELDS)[number], string>;
    for (const f of GIFT_AID_FIELDS) values[`gift_aid.${f}`] = g[f];
    if (!g.first_name) add("gift_aid.first_name", "Enter your first name for the Gift Aid declaration.");
    if (!g.last_name) add("gift_aid.last_name", "Enter your last name for the Gift Aid declaration.");
    if (!g.house) add("gift_aid.house", "Enter your house name or number for the Gift Aid declaration.");
    if (!g.postcode) add("gift_aid.postcode", "Enter your postcode for the Gift Aid declaration.");
    else if (!POSTCODE.test(g.postcode)) add("gift_aid.postcode", "Enter a UK postcode, such as SW1A 1AA.");
    giftAid = { declared: true, wording: giftAidDeclaration(society), ...g, postcode: g.postcode.toUpperCase() };
  }

  const marketing = form.get("marketing_consent") === "on";
  if (marketing) values.marketing_consent = "on";
  const returnTo = field(form, "return_to");
  values.return_to = returnTo;

  return {
    request: {
      plan: plan.slug,
      concession,
      household,
      gift_aid: giftAid,
      marketing_consent: marketing,
      return_to: validRedirect(returnTo) ? returnTo : "",
    },
    errors,
    values,
  };
}
