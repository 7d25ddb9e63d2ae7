import { describe, expect, it } from "vitest";
import { ALERT_CHOICES, alertSentence, parseAlertChoice } from "./alerts";

describe("alert choices", () => {
  it("offers off, immediately, daily and weekly, in that order", () => {
    expect(ALERT_CHOICES.map((c) => c.value)).toEqual(["off", "immediately", "daily", "weekly"]);
  });

  it.each(["off", "immediately", "daily", "weekly"])("reads %s", (value) => {
    expect(parseAlertChoice(value)).toBe(value);
  });

  it.each(["", "hourly", "Daily", "never"])("refuses %j", (value) => {
    expect(parseAlertChoice(value)).toBeNull();
  });

  it("says what each choice does, naming the search", () => {
    expect(alertSentence("off", "Smiths of Kent")).toBe("We will not email you about “Smiths of Kent”.");
    expect(alertSentence("immediately", "Smiths")).toMatch(/soon after new records matching “Smiths” are added/);
    expect(alertSentence("daily", "Smiths")).toMatch(/at most once a day/);
    expect(alertSentence("weekly", "Smiths")).toMatch(/at most once a week/);
  });
});
