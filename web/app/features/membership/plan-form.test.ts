import { describe, expect, test } from "vitest";
import { concessionRows, formErrors, parseScopes, planBodyFromForm, planFormValues } from "./plan-form";
import { testPlan } from "./plans.test-support";
import { formData as form } from "../../lib/form-data.test-support";

const BASE: [string, string][] = [
  ["name", "Family"],
  ["slug", "family"],
  ["price", "36.50"],
  ["currency", "gbp"],
  ["period", "annual"],
  ["renew_month", ""],
  ["renew_day", ""],
  ["benefits", "The journal.\nTwo votes."],
  ["scopes", "member,\nmember:overseas "],
  ["household_size", "2"],
  ["grace_days", "30"],
  ["on_sale", "on"],
];

describe("planBodyFromForm", () => {
  test("turns pounds and pence, scopes and concession rows into the API's body", () => {
    const { body, errors } = planBodyFromForm(
      form([
        ...BASE,
        ["concessions.0.name", "Student"],
        ["concessions.0.slug", "student"],
        ["concessions.0.price", "£18.25"],
        ["concessions.2.name", ""],
        ["concessions.2.slug", ""],
        ["concessions.2.price", ""],
        ["concessions.3.name", "Senior"],
        ["concessions.3.slug", "senior"],
        ["concessions.3.price", "0.1"],
      ]),
    );
    expect(errors).toEqual({});
    expect(body).toEqual({
      slug: "family",
      name: "Family",
      price_minor: 3650,
      currency: "GBP",
      period: "annual",
      renew_month: 0,
      renew_day: 0,
      benefits: "The journal.\nTwo votes.",
      scopes: ["member", "member:overseas"],
      household_size: 2,
      concessions: [
        { slug: "student", name: "Student", price_minor: 1825 },
        { slug: "senior", name: "Senior", price_minor: 10 },
      ],
      on_sale: true,
      grace_days: 30,
    });
  });

  test("a fixed-date plan keeps its renew month and day; other periods send 0", () => {
    const fixed = (period: string) =>
      planBodyFromForm(form([...BASE.filter(([k]) => !["period", "renew_month", "renew_day"].includes(k)), ["period", period], ["renew_month", "9"], ["renew_day", "1"]])).body!;
    expect([fixed("fixed").renew_month, fixed("fixed").renew_day]).toEqual([9, 1]);
    expect([fixed("annual").renew_month, fixed("annual").renew_day]).toEqual([0, 0]);
  });

  test("the slug of the plan being edited wins over the form, and an unticked box is not on sale", () => {
    const { body } = planBodyFromForm(form(BASE.filter(([k]) => k !== "on_sale")), "individual");
    expect(body?.slug).toBe("individual");
    expect(body?.on_sale).toBe(false);
  });

  test.each([
    ["price", "", "price", "Enter the price, such as 24.00."],
    ["price", "24.505", "price", "Give at most 2 digits after the decimal point."],
    ["price", "-3", "price", "The amount cannot be negative."],
    ["household_size", "two", "household_size", "Enter how many people as a whole number."],
    ["grace_days", "1.5", "grace_days", "Enter the grace period as a whole number of days."],
  ])("%s %j is refused with a message by the field", (name, value, key, message) => {
    const { body, errors, values } = planBodyFromForm(form([...BASE.filter(([k]) => k !== name), [name, value]]));
    expect(body).toBeNull();
    expect(errors[key]).toEqual([message]);
    expect(values[name]).toBe(value.trim());
  });

  test("a concession's bad price is named in the concessions' error and its row is kept", () => {
    const { body, errors, concessions } = planBodyFromForm(form([...BASE, ["concessions.0.name", "Student"], ["concessions.0.slug", "student"], ["concessions.0.price", "12,5"]]));
    expect(body).toBeNull();
    expect(errors.concessions?.[0]).toMatch(/^Student: Enter the amount as a number/);
    expect(concessions).toEqual([{ name: "Student", slug: "student", price: "12,5" }]);
  });

  test("a currency without minor units takes whole amounts only", () => {
    const yen = (price: string) => planBodyFromForm(form([...BASE.filter(([k]) => !["price", "currency"].includes(k)), ["price", price], ["currency", "JPY"]]));
    expect(yen("3000").body?.price_minor).toBe(3000);
    expect(yen("30.5").errors.price).toEqual(["JPY amounts have no minor units."]);
  });
});

test("parseScopes splits on commas and lines", () => {
  expect(parseScopes(" member , member:overseas\r\n\nresearch ")).toEqual(["member", "member:overseas", "research"]);
  expect(parseScopes("")).toEqual([]);
});

test("concessionRows keeps the posted order by index", () => {
  expect(concessionRows(form([["concessions.10.name", "B"], ["concessions.2.name", "A"], ["concessions.x.name", "no"]])).map((r) => r.name)).toEqual(["A", "B"]);
});

test("formErrors puts the API's price_minor and concession errors by the form's fields", () => {
  expect(formErrors({ price_minor: ["p"], "concessions.1.slug": ["c"], concessions: ["d"], name: ["n"] })).toEqual({ price: ["p"], concessions: ["c", "d"], name: ["n"] });
});

test("planFormValues shows a stored plan's prices in pounds and pence", () => {
  const plan = testPlan({ period: "fixed", renew_month: 10, renew_day: 1, concessions: [{ slug: "student", name: "Student", price_minor: 1205 }] });
  const { values, concessions } = planFormValues(plan);
  expect(values).toMatchObject({ price: "24.00", renew_month: "10", renew_day: "1", scopes: "member", on_sale: "on" });
  expect(concessions).toEqual([{ name: "Student", slug: "student", price: "12.05" }]);
  expect(planFormValues(null).values.grace_days).toBe("30");
});
