import { describe, expect, it } from "vitest";
import { cutListText } from "./person";

describe("a list the API cut from a person's answer", () => {
  it("says how much is shown of how much", () => {
    const person = { more: { events: { total: 523, next: "/api/trees/t/people/I1/events?offset=100" } } };
    expect(cutListText(person, "events", 100)).toBe("Showing 100 of 523 events.");
    expect(cutListText(person, "notes", 3)).toBeNull();
  });

  it("says nothing for a whole list or an answer without paging", () => {
    expect(cutListText({ more: { notes: { total: 4, next: "" } } }, "notes", 4)).toBeNull();
    expect(cutListText({ more: {} }, "sources", 0)).toBeNull();
  });
});
