import { describe, expect, it } from "vitest";
import { parsePersonSlug, personPath, personSlug, validTreeSlug, viewerHref, viewerStateFrom } from "./slug";

describe("person slugs", () => {
  it.each([
    ["smith-family", "I12"],
    ["demo", "42"],
    ["a", "I@odd"],
    ["kent-1851", "P-1"],
  ])("round-trips %s / %s", (tree, person) => {
    expect(parsePersonSlug(personSlug(tree, person))).toEqual({ tree, person });
  });

  it("splits at the first tilde and decodes the person id", () => {
    expect(parsePersonSlug("demo~I%2012")).toBeNull(); // a space is not an id
    expect(parsePersonSlug("demo~I%4012")).toEqual({ tree: "demo", person: "I@12" });
  });

  it.each([
    [""],
    [undefined],
    ["demo"],
    ["~I1"],
    ["demo~"],
    ["Demo~I1"],
    ["demo tree~I1"],
    ["-demo~I1"],
    ["demo~I1~I2"],
    ["demo~%E0%A4%A"],
    ["demo~a%2Fb"],
    [`demo~${"x".repeat(65)}`],
  ])("refuses %j", (slug) => {
    expect(parsePersonSlug(slug)).toBeNull();
  });

  it("builds the page path", () => {
    expect(personPath("demo", "I1")).toBe("/research-hub/our-collections/family-trees-record/demo~I1");
  });

  it("checks tree slugs", () => {
    expect(validTreeSlug("smith-family-2")).toBe(true);
    expect(validTreeSlug("Smith")).toBe(false);
    expect(validTreeSlug("a/b")).toBe(false);
    expect(validTreeSlug("")).toBe(false);
  });
});

describe("viewer state in the query", () => {
  it("defaults anything missing or malformed", () => {
    expect(viewerStateFrom(new URLSearchParams(""))).toEqual({ person: null, chart: "pedigree", generations: 4 });
    expect(viewerStateFrom(new URLSearchParams("chart=fan&generations=99&person=a/b"))).toEqual({ person: null, chart: "pedigree", generations: 4 });
    expect(viewerStateFrom(new URLSearchParams("generations=2.5"))).toMatchObject({ generations: 4 });
  });

  it("reads a valid state and writes it back without defaults", () => {
    const state = viewerStateFrom(new URLSearchParams("person=I7&chart=hourglass&generations=3"));
    expect(state).toEqual({ person: "I7", chart: "hourglass", generations: 3 });
    expect(viewerHref("demo", state)).toBe("/research-hub/our-collections/family-trees/demo?person=I7&chart=hourglass&generations=3#viewer");
    expect(viewerHref("demo", { person: null, chart: "pedigree", generations: 4 }, "")).toBe("/research-hub/our-collections/family-trees/demo");
  });
});
