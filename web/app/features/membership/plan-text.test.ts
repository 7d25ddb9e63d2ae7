import { describe, expect, test } from "vitest";
import { householdText, mayRejoin, mayRenewEarly, periodText, priceText, statusText } from "./plan-text";
import { testPlan } from "./plans.test-support";
import type { Membership, Plan } from "./types";

describe("periodText", () => {
  test.each([
    [{ period: "annual" }, "a year"],
    [{ period: "monthly" }, "a month"],
    [{ period: "lifetime" }, "for life"],
    [{ period: "fixed", renew_month: 10, renew_day: 1 }, "a year, renewing every 1 October"],
    [{ period: "fixed", renew_month: 13, renew_day: 1 }, "a year"],
  ])("%j → %s", (over, want) => {
    expect(periodText(testPlan(over as Partial<Plan>))).toBe(want);
  });
});

test("priceText formats the plan's or a concession's price", () => {
  expect(priceText(testPlan())).toBe("£24.00 a year");
  expect(priceText(testPlan(), 1200)).toBe("£12.00 a year");
  expect(priceText(testPlan({ period: "lifetime", price_minor: 40000 }))).toBe("£400.00 for life");
});

test("householdText only for household plans", () => {
  expect(householdText(testPlan())).toBeNull();
  expect(householdText(testPlan({ household_size: 2 }))).toBe("For up to 2 people, each with their own account");
});

test("statusText and mayRejoin", () => {
  expect(statusText("grace")).toMatch(/grace/);
  expect(statusText("strange")).toBe("strange");
  const m = (status: string) => ({ status }) as Membership;
  expect(mayRejoin(null)).toBe(true);
  expect(mayRejoin(m("lapsed"))).toBe(true);
  expect(mayRejoin(m("cancelled"))).toBe(true);
  expect(mayRejoin(m("active"))).toBe(false);
  expect(mayRejoin(m("pending"))).toBe(false);
});

test("mayRenewEarly: active or grace, not lifetime, not a card subscription", () => {
  const m = (status: string, period: string, method: string, auto_renew: boolean) =>
    ({ status, method, auto_renew, plan: { period } }) as unknown as Membership;
  expect(mayRenewEarly(null)).toBe(false);
  expect(mayRenewEarly(m("active", "annual", "manual", false))).toBe(true);
  expect(mayRenewEarly(m("grace", "fixed", "stripe", false))).toBe(true);
  expect(mayRenewEarly(m("active", "monthly", "stripe", false))).toBe(true);
  expect(mayRenewEarly(m("active", "annual", "stripe", true))).toBe(false);
  expect(mayRenewEarly(m("lifetime", "lifetime", "stripe", false))).toBe(false);
  expect(mayRenewEarly(m("active", "lifetime", "manual", false))).toBe(false);
  expect(mayRenewEarly(m("complimentary", "annual", "complimentary", false))).toBe(false);
  expect(mayRenewEarly(m("pending", "annual", "stripe", false))).toBe(false);
  expect(mayRenewEarly(m("lapsed", "annual", "manual", false))).toBe(false);
});
