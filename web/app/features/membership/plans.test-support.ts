// The plan the membership tests start from: the society's individual plan, £24 a year.
import type { Plan } from "./types";

/** The individual plan, with `over` changed. */
export const testPlan = (over: Partial<Plan> = {}): Plan => ({
  id: 1,
  slug: "individual",
  name: "Individual",
  price_minor: 2400,
  currency: "GBP",
  period: "annual",
  renew_month: 0,
  renew_day: 0,
  benefits: "",
  scopes: ["member"],
  household_size: 1,
  concessions: [],
  on_sale: true,
  grace_days: 30,
  ...over,
});
