// The join (or renew) form of /subscribe/{slug}: its field names and the request it
// becomes (POST /api/membership/join). The field names
// are the API's error keys ("household.0.email", "gift_aid.postcode"), so the API's 422
// errors land next to the fields that caused them.
import { validRedirect } from "../auth";
import type { Plan } from "./types";

export const GIFT_AID_FIELDS = ["title", "first_name", "last_name", "house", "postcode", "address"] as const;

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

/**
 * The join request for the form's values, and the values to put back in the fields
 * if the API refuses it. The API validates every field (its 422 errors are keyed by
 * these names); the form only leaves out household rows left empty and Gift Aid
 * details when the declaration box is not ticked.
 */
export function joinRequestFromForm(form: Form, plan: Plan): { request: JoinRequest; values: Record<string, string> } {
  const values: Record<string, string> = {};
  const concession = field(form, "concession");
  values.concession = concession;

  const household: JoinRequest["household"] = [];
  for (let i = 0; i < householdSlots(plan); i++) {
    const name = field(form, `household.${i}.name`);
    const email = field(form, `household.${i}.email`);
    values[`household.${i}.name`] = name;
    values[`household.${i}.email`] = email;
    if (name || email) household.push({ name, email });
  }

  let giftAid: JoinRequest["gift_aid"] = null;
  if (offersGiftAid(plan)) {
    const g = Object.fromEntries(GIFT_AID_FIELDS.map((f) => [f, field(form, `gift_aid.${f}`)])) as Record<(typeof GIFT_AID_FIELDS)[number], string>;
    for (const f of GIFT_AID_FIELDS) values[`gift_aid.${f}`] = g[f];
    if (form.get("gift_aid") === "on") {
      values.gift_aid = "on";
      // The wording the page showed: the API refuses a declaration of other words.
      giftAid = { declared: true, wording: field(form, "gift_aid.wording"), ...g };
    }
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
    values,
  };
}
