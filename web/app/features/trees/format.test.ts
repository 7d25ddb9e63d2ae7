import { describe, expect, it } from "vitest";
import { layoutChart } from "./chart";
import { chartGraphFrom, dateText, lifeSpan, summaryYears } from "./format";
import { timelineOf } from "./person";
import type { Graph, PersonEvent } from "./types";

const graph: Graph = {
  start: "I3",
  kind: "hourglass",
  generations: 2,
  truncated: false,
  indis: [
    { id: "I1", firstName: "John", lastName: "Ashworth", sex: "M", fams: ["F1"], birth: { date: { year: 1790, qualifier: "abt", text: "ABT 1790" } }, death: { date: { year: 1861, text: "1861" } } },
    { id: "I2", name: "Betty Kay", sex: "F", fams: ["F1"], death: { date: { text: "1850", year: 1850 } } },
    { id: "I3", firstName: "Mary", lastName: "Ashworth", sex: "F", famc: "F2", fams: [] },
    { id: "I4", firstName: "Living", lastName: "", sex: "M", living: true, famc: "F1" },
    { id: "I5", sex: "X" },
  ],
  fams: [
    { id: "F1", husb: "I1", wife: "I2", children: ["I4", "I3"] },
    // Mary's adoptive family, named by famc: the chart follows it, not F1.
    { id: "F2", wife: "I5", children: ["I3"] },
  ],
};

describe("the graph answer as the viewer's model", () => {
  const g = chartGraphFrom(graph);

  it("names people, keeps the living bare and writes life spans", () => {
    expect(g.root).toBe("I3");
    expect(g.people.map((p) => [p.id, p.name, p.sex, p.years])).toEqual([
      ["I1", "John Ashworth", "M", "c. 1790–1861"],
      ["I2", "Betty Kay", "F", "d. 1850"],
      ["I3", "Mary Ashworth", "F", ""],
      ["I4", "Living", "M", ""],
      ["I5", "(unknown)", "U", ""],
    ]);
    expect(g.families).toEqual([
      { id: "F1", partners: ["I1", "I2"], children: ["I4", "I3"] },
      { id: "F2", partners: ["I5"], children: ["I3"] },
    ]);
  });

  it("follows the family named by famc for parents", () => {
    const layout = layoutChart(g, "pedigree", 2);
    expect(layout.nodes.map((n) => n.person).sort()).toEqual(["I3", "I5"]);
  });
});

describe("words", () => {
  it("writes life spans", () => {
    expect(lifeSpan("1800", "1870")).toBe("1800–1870");
    expect(lifeSpan("", "")).toBe("");
    expect(summaryYears({ living: true, birth: { date: { text: "1990", year: 1990 }, place: "" } })).toBe("");
    expect(summaryYears({ living: false, birth: { date: { text: "1851", year: 1851 }, place: "" }, death: null })).toBe("b. 1851");
  });

  it("makes GEDCOM dates readable", () => {
    expect(dateText("12 MAR 1851")).toBe("12 Mar 1851");
    expect(dateText("BET 1850 AND 1852")).toBe("between 1850 and 1852");
    expect(dateText("ABT JUN 1790")).toBe("about Jun 1790");
    expect(dateText(undefined)).toBe("");
  });
});

describe("a person's timeline", () => {
  const ev = (label: string, position: number, earliest?: string): PersonEvent => ({
    tag: "EVEN",
    label,
    date: earliest ? { text: earliest, earliest } : null,
    place: "",
    position,
  });
  it("merges family events into the person's by the API's timeline position", () => {
    const t = timelineOf({
      // the API's order, not the dates': a year-only christening after the birth of that year
      events: [ev("Birth", 0, "1822-07-24"), ev("Christening", 1, "1822-01-01"), ev("Death", 3, "1890-03-03"), ev("Residence", 4)],
      families: [
        {
          id: "F9",
          partner: { id: "I20", name: "James Howarth", given: "James", surname: "Howarth", sex: "M", living: false },
          events: [ev("Marriage", 2, "1845-06-12")],
          children: [],
        },
      ],
    });
    expect(t.map((e) => e.label)).toEqual(["Birth", "Christening", "Marriage", "Death", "Residence"]);
    expect(t[2].with?.name).toBe("James Howarth");
  });
});
