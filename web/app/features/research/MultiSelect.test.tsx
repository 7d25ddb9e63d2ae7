import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MultiSelect } from "./MultiSelect";
import {
  EMPTY_LIST_TEXT,
  NO_RESULTS_TEXT,
  atMax,
  emptyText,
  filterOptions,
  maxText,
  optionText,
  overflowText,
  toggle,
  valuesFromParams,
  visibleTags,
  withChosen,
} from "./multiselect";

const counties = [
  { value: "37", label: "Surrey", count: 4 },
  { value: "26", label: "Middlesex", count: 1200 },
  { value: "9", label: "Müllershire" },
];

describe("multi-select texts (seed-spec §5, §8, §9)", () => {
  it("says the maximum in the spec's words", () => {
    expect(maxText(3)).toBe("Maximum of 3 options selected. First remove a selected option to select another.");
  });
  it("has the spec's empty texts", () => {
    expect(EMPTY_LIST_TEXT).toBe("List is empty.");
    expect(NO_RESULTS_TEXT).toBe("No elements found. Consider changing the search query.");
  });
  it("says how many more are chosen", () => {
    expect(overflowText(2)).toBe("and 2 more");
  });
});

describe("multi-select rules", () => {
  it("knows when the maximum is reached", () => {
    expect(atMax(["a", "b"], 2)).toBe(true);
    expect(atMax(["a"], 2)).toBe(false);
    expect(atMax(["a", "b", "c"], undefined)).toBe(false);
    expect(atMax(["a"], 0)).toBe(false);
  });

  it("shows tags up to the display limit, then 'and N more'", () => {
    expect(visibleTags(["a", "b", "c", "d"], 2)).toEqual({ shown: ["a", "b"], more: 2 });
    expect(visibleTags(["a"])).toEqual({ shown: ["a"], more: 0 });
    expect(visibleTags(["a", "b"], 0)).toEqual({ shown: [], more: 2 });
  });

  it("filters by label ignoring case and accents", () => {
    expect(filterOptions(counties, "sex").map((o) => o.value)).toEqual(["26"]);
    expect(filterOptions(counties, "MULL").map((o) => o.value)).toEqual(["9"]);
    expect(filterOptions(counties, "  ").length).toBe(3);
    expect(filterOptions(counties, "zzz")).toEqual([]);
  });

  it("chooses the message of an empty list", () => {
    expect(emptyText([], "")).toBe(EMPTY_LIST_TEXT);
    expect(emptyText([], "x")).toBe(EMPTY_LIST_TEXT);
    expect(emptyText(counties, "zzz")).toBe(NO_RESULTS_TEXT);
    expect(emptyText(counties, "sur")).toBeNull();
  });

  it("toggles within the maximum", () => {
    expect(toggle(["a"], "b", "multiple", 2)).toEqual(["a", "b"]);
    expect(toggle(["a", "b"], "c", "multiple", 2)).toEqual(["a", "b"]);
    expect(toggle(["a", "b"], "a", "multiple", 2)).toEqual(["b"]);
    expect(toggle(["a"], "b", "single")).toEqual(["b"]);
    expect(toggle(["a"], "a", "single")).toEqual([]);
  });

  it("reads repeated and comma-separated parameters, capped at the maximum", () => {
    const p = new URLSearchParams("c=a&c=b,c&c=&c=a&other=x");
    expect(valuesFromParams(p, "c")).toEqual(["a", "b", "c"]);
    expect(valuesFromParams(p, "c", 2)).toEqual(["a", "b"]);
    expect(valuesFromParams(p, "missing")).toEqual([]);
  });

  it("labels options with their counts", () => {
    expect(optionText(counties[0])).toBe("Surrey (4)");
    expect(optionText(counties[1])).toBe("Middlesex (1,200)");
    expect(optionText(counties[2])).toBe("Müllershire");
  });

  it("keeps chosen values the options lack", () => {
    expect(withChosen(counties, ["37", "99"]).map((o) => o.value)).toEqual(["37", "26", "9", "99"]);
  });
});

describe("MultiSelect on the server (the no-JavaScript form)", () => {
  it("renders checkboxes with the field's name, the chosen ones checked", () => {
    const html = renderToStaticMarkup(<MultiSelect name="place" label="County" options={counties} defaultValue={["26"]} max={2} />);
    expect(html).toContain("<legend");
    expect(html).toContain(">County</legend>");
    expect(html.match(/type="checkbox" name="place"/g)?.length).toBe(3);
    expect(html).toMatch(/<input[^>]*name="place" checked="" value="26"\/>/);
    expect(html).not.toMatch(/checked="" value="37"/);
    expect(html).toContain("Choose up to 2.");
    expect(html).toContain("max-height:300px");
  });

  it("renders a select with 'Any' in single mode", () => {
    const html = renderToStaticMarkup(<MultiSelect name="decade" label="Decade" mode="single" options={counties} defaultValue={["37"]} />);
    expect(html).toMatch(/<select[^>]*name="decade"/);
    expect(html).toContain('<option value="">Any</option>');
    expect(html).toContain('<option value="37" selected="">Surrey (4)</option>');
  });

  it("says the list is empty when there are no options", () => {
    const html = renderToStaticMarkup(<MultiSelect name="x" label="Empty" options={[]} />);
    expect(html).toContain("List is empty.");
  });

  it("keeps a chosen value that is no longer an option", () => {
    const html = renderToStaticMarkup(<MultiSelect name="place" label="County" options={counties} defaultValue={["99"]} />);
    expect(html).toMatch(/checked="" value="99"\/>99</);
  });
});
