import { describe, expect, test } from "vitest";
import { joinFields, joinRequestFromForm } from "./join-form";
import { testPlan } from "./plans.test-support";
import type { Plan } from "./types";
import { formData as form } from "../../lib/form-data.test-support";

const individual = testPlan({ concessions: [{ slug: "student", name: "Student", price_minor: 1200 }] });
const joint: Plan = { ...individual, slug: "joint", household_size: 3, concessions: [] };
const overseas: Plan = { ...individual, slug: "overseas", currency: "USD", concessions: [] };

describe("joinRequestFromForm", () => {
  test("a plain join: no household, no Gift Aid, no marketing", () => {
    const { request } = joinRequestFromForm(form({ concession: "", return_to: "/research-hub/our-collections/records/7" }), individual);
    expect(request).toEqual({
      plan: "individual",
      concession: "",
      household: [],
      gift_aid: null,
      marketing_consent: false,
      return_to: "/research-hub/our-collections/records/7",
    });
  });

  test("the concession is sent as chosen (the API checks it is the plan's)", () => {
    expect(joinRequestFromForm(form({ concession: "student" }), individual).request.concession).toBe("student");
  });

  test("household rows: empty ones are left out, half-filled ones are sent for the API to name the missing field", () => {
    const { request, values } = joinRequestFromForm(
      form({ "household.0.name": " Bob ", "household.0.email": "bob@example.org", "household.1.name": "Cy" }),
      joint,
    );
    expect(request.household).toEqual([{ name: "Bob", email: "bob@example.org" }, { name: "Cy", email: "" }]);
    expect(values["household.1.name"]).toBe("Cy");
    // More rows than the plan has room for are not read.
    expect(joinRequestFromForm(form({ "household.5.name": "Dee", "household.5.email": "d@example.org" }), joint).request.household).toEqual([]);
  });

  test("Gift Aid declared: the details and the wording the page showed are sent", () => {
    const wording = "I want to Gift Aid my membership subscriptions … to The Society.";
    const { request } = joinRequestFromForm(
      form({
        gift_aid: "on",
        "gift_aid.wording": wording,
        "gift_aid.title": "Mrs",
        "gift_aid.first_name": "Ada",
        "gift_aid.last_name": "King",
        "gift_aid.house": "12",
        "gift_aid.postcode": "SW1A 1AA",
        "gift_aid.address": "St James's Square, London",
      }),
      individual,
    );
    expect(request.gift_aid).toEqual({
      declared: true,
      wording,
      title: "Mrs",
      first_name: "Ada",
      last_name: "King",
      house: "12",
      postcode: "SW1A 1AA",
      address: "St James's Square, London",
    });
  });

  test("Gift Aid details without the box ticked are not a declaration, but are kept for the form", () => {
    const { request, values } = joinRequestFromForm(form({ "gift_aid.first_name": "Ada" }), individual);
    expect(request.gift_aid).toBeNull();
    expect(values["gift_aid.first_name"]).toBe("Ada");
    expect(values.gift_aid).toBeUndefined();
  });

  test("no Gift Aid for plans not paid in pounds", () => {
    const { request } = joinRequestFromForm(form({ gift_aid: "on" }), overseas);
    expect(request.gift_aid).toBeNull();
    expect(joinFields(overseas)).not.toContain("gift_aid");
  });

  test("marketing consent only when its own box is ticked", () => {
    expect(joinRequestFromForm(form({ marketing_consent: "on" }), individual).request.marketing_consent).toBe(true);
    expect(joinRequestFromForm(form({ gift_aid: "on" }), individual).request.marketing_consent).toBe(false);
  });

  test("a return path that is not a local path is dropped", () => {
    for (const bad of ["https://evil.example/", "//evil.example", "/\\evil", "javascript:alert(1)"]) {
      expect(joinRequestFromForm(form({ return_to: bad }), individual).request.return_to).toBe("");
    }
  });

  test("joinFields lists the household rows in order", () => {
    expect(joinFields(joint)).toEqual([
      "concession",
      "household.0.name",
      "household.0.email",
      "household.1.name",
      "household.1.email",
      "gift_aid",
      "gift_aid.title",
      "gift_aid.first_name",
      "gift_aid.last_name",
      "gift_aid.house",
      "gift_aid.postcode",
      "gift_aid.address",
      "marketing_consent",
    ]);
  });
});
