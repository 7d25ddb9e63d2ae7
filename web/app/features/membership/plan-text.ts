// How a plan's terms read on the pages.
import { formatMoney } from "./money";
import type { Membership, Plan } from "./types";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "a year", "a month", "for life", "a year, renewing every 1 October". */
export function periodText(plan: Pick<Plan, "period" | "renew_month" | "renew_day">): string {
  switch (plan.period) {
    case "monthly":
      return "a month";
    case "lifetime":
      return "for life";
    case "fixed": {
      const month = MONTHS[plan.renew_month - 1];
      return month && plan.renew_day >= 1 ? `a year, renewing every ${plan.renew_day} ${month}` : "a year";
    }
    default:
      return "a year";
  }
}

/** "£24.00 a year". */
export function priceText(plan: Plan, minor = plan.price_minor): string {
  return `${formatMoney(minor, plan.currency)} ${periodText(plan)}`;
}

/** "Up to 2 people", or null for an individual plan. */
export function householdText(plan: Plan): string | null {
  return plan.household_size > 1 ? `For up to ${plan.household_size} people, each with their own account` : null;
}

const STATUS_TEXT: Record<string, string> = {
  pending: "Waiting for payment",
  active: "Active",
  grace: "In its grace period (renewal due)",
  lapsed: "Lapsed",
  cancelled: "Cancelled",
  complimentary: "Complimentary",
  lifetime: "Life member",
};

export function statusText(status: string): string {
  return STATUS_TEXT[status] ?? status;
}

/** A date of the API (RFC 3339) as "1 October 2026", in the society's time zone. */
export function dateText(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/London" });
}

/** Whether the member may join again (nothing running any more). */
export function mayRejoin(m: Membership | null): boolean {
  return !m || m.status === "lapsed" || m.status === "cancelled";
}

/**
 * Whether the member may pay the next period now ("Renew now"): active or in grace, on
 * a plan that does not renew by itself (not lifetime, not a card subscription). The
 * payment extends the membership from its paid-until date.
 */
export function mayRenewEarly(m: Membership | null): boolean {
  if (!m || (m.status !== "active" && m.status !== "grace")) return false;
  if (m.plan.period === "lifetime") return false;
  return !(m.method === "stripe" && m.auto_renew);
}
