import { describe, expect, it } from "vitest";
import { layoutChart, listModel, wholeChartView, type ChartGraph, type ChartLayout } from "./chart";
import { ChartNavigator, moveForKey } from "./keyboard";

// Three generations above Tom and two below:
//   Will + Ann        Hugh + Jane
//        John   +   Mary
//              Tom  +  Sue        (Tom also with Kate)
//          Amy   Ben          Cal (with Kate)
const P = (id: string, name: string, sex: "M" | "F") => ({ id, name, sex, living: false });
const graph: ChartGraph = {
  root: "tom",
  people: [
    P("will", "Will", "M"),
    P("ann", "Ann", "F"),
    P("hugh", "Hugh", "M"),
    P("jane", "Jane", "F"),
    P("john", "John", "M"),
    P("mary", "Mary", "F"),
    P("tom", "Tom", "M"),
    P("sue", "Sue", "F"),
    P("kate", "Kate", "F"),
    P("amy", "Amy", "F"),
    P("ben", "Ben", "M"),
    P("cal", "Cal", "M"),
  ],
  families: [
    // Mother listed first: the chart still puts the father first.
    { id: "F1", partners: ["ann", "will"], children: ["john"] },
    { id: "F2", partners: ["hugh", "jane"], children: ["mary"] },
    { id: "F3", partners: ["john", "mary"], children: ["tom"] },
    { id: "F4", partners: ["tom", "sue"], children: ["amy", "ben"] },
    { id: "F5", partners: ["tom", "kate"], children: ["cal"] },
    // A family whose people are not in the answer (beyond the generations asked for).
    { id: "F6", partners: ["amy", "zed"], children: ["yan"] },
  ],
};

const at = (layout: ChartLayout, key: string) => layout.nodes.find((n) => n.key === key)!;
const people = (layout: ChartLayout) => layout.nodes.map((n) => n.person).sort();

function noOverlaps(layout: ChartLayout) {
  const seen = new Set<string>();
  for (const n of layout.nodes) {
    const cell = `${n.x}:${n.row}`;
    expect(seen.has(cell), `two boxes at ${cell}`).toBe(false);
    seen.add(cell);
  }
}

describe("pedigree layout", () => {
  const layout = layoutChart(graph, "pedigree", 3);

  it("shows the ancestors within the generations asked for, father first", () => {
    expect(people(layout)).toEqual(["ann", "hugh", "jane", "john", "mary", "tom", "will"]);
    expect(at(layout, "root").up.map((k) => at(layout, k).person)).toEqual(["john", "mary"]);
    expect(at(layout, "root.f").up.map((k) => at(layout, k).person)).toEqual(["will", "ann"]);
    expect(at(layout, "root.f.m").relation).toBe("Mother");
    expect([layout.minRow, layout.maxRow]).toEqual([-2, 0]);
  });

  it("centres each child under its parents and keeps boxes apart", () => {
    noOverlaps(layout);
    expect(at(layout, "root.f").x).toBe((at(layout, "root.f.f").x + at(layout, "root.f.m").x) / 2);
    expect(at(layout, "root").x).toBe(2);
    expect(layout.columns).toBe(4);
    expect(layout.edges).toHaveLength(6);
  });

  it("stops at two generations", () => {
    expect(people(layoutChart(graph, "pedigree", 2))).toEqual(["john", "mary", "tom"]);
  });
});

describe("descendants layout", () => {
  const layout = layoutChart(graph, "descendants", 3);

  it("shows partners beside the person and children below", () => {
    expect(people(layout)).toEqual(["amy", "ben", "cal", "kate", "sue", "tom"]);
    const partners = layout.nodes.filter((n) => n.role === "partner").map((n) => n.person);
    expect(partners).toEqual(["sue", "kate"]);
    for (const n of layout.nodes.filter((n) => n.role === "partner")) expect(n.row).toBe(0);
    expect(at(layout, "root.c0-1").relation).toBe("Son");
    expect(at(layout, "root.c0-1").from).toBe("root.p0");
    noOverlaps(layout);
  });

  it("links each child to both parents shown", () => {
    expect(at(layout, "root.c1-0").up).toEqual(["root", "root.p1"]);
    expect(at(layout, "root").down).toHaveLength(3);
  });

  it("nests children under the partner they were had with in the list", () => {
    const [section] = listModel(layout);
    expect(section.title).toBe("Descendants");
    expect(section.item.items.map((i) => [i.person, i.relation, i.items.map((c) => c.person)])).toEqual([
      ["sue", "Partner", ["amy", "ben"]],
      ["kate", "Partner", ["cal"]],
    ]);
  });
});

describe("hourglass layout", () => {
  const layout = layoutChart(graph, "hourglass", 2);

  it("puts ancestors above and descendants below one shared box", () => {
    expect(layout.nodes.filter((n) => n.person === "tom")).toHaveLength(1);
    expect(people(layout)).toEqual(["amy", "ben", "cal", "john", "kate", "mary", "sue", "tom"]);
    const root = at(layout, "root");
    expect(root.up.map((k) => at(layout, k).person)).toEqual(["john", "mary"]);
    expect((at(layout, "root.f").x + at(layout, "root.m").x) / 2).toBe(root.x);
    expect(Math.min(...layout.nodes.map((n) => n.x))).toBe(0.5);
    noOverlaps(layout);
    expect(listModel(layout).map((s) => s.title)).toEqual(["Ancestors", "Descendants"]);
  });
});

describe("edge cases", () => {
  it("lays out nothing when the root is not in the graph", () => {
    const layout = layoutChart({ root: "x", people: [], families: [] }, "hourglass", 4);
    expect(layout.nodes).toEqual([]);
    expect(listModel(layout)).toEqual([]);
  });

  it("lays out a lone person as one box", () => {
    const layout = layoutChart({ root: "a", people: [P("a", "A", "F")], families: [] }, "hourglass", 4);
    expect(layout.nodes).toHaveLength(1);
    expect(layout.columns).toBe(1);
  });

  it("terminates on a cyclic file (a person their own ancestor)", () => {
    const cyclic: ChartGraph = {
      root: "a",
      people: [P("a", "A", "M"), P("b", "B", "F")],
      families: [
        { id: "1", partners: ["b"], children: ["a"] },
        { id: "2", partners: ["a"], children: ["b"] },
      ],
    };
    expect(layoutChart(cyclic, "pedigree", 5).nodes).toHaveLength(5);
    expect(layoutChart(cyclic, "descendants", 5).nodes).toHaveLength(5);
  });
});

describe("keyboard navigation", () => {
  it("maps keys to moves", () => {
    expect(moveForKey("ArrowUp")).toBe("up");
    expect(moveForKey("Home")).toBe("home");
    expect(moveForKey("Enter")).toBeNull();
  });

  it("moves to parents, back down the way it came, and along a generation", () => {
    const nav = new ChartNavigator(layoutChart(graph, "pedigree", 3));
    expect(nav.node(nav.move("root", "up"))!.person).toBe("john");
    expect(nav.move("root.f", "up")).toBe("root.f.f");
    expect(nav.move("root.m.f", "down")).toBe("root.m");
    expect(nav.move("root.m", "down")).toBe("root");
    expect(nav.move("root.f.m", "right")).toBe("root.m.f");
    expect(nav.move("root.f.f", "left")).toBe("root.f.f"); // nothing further left
    expect(nav.move("root.f.f", "up")).toBe("root.f.f"); // beyond the generations shown
    expect(nav.move("root.m.m", "home")).toBe("root");
    expect(nav.move("gone", "up")).toBe("root");
  });

  it("moves from a person to a partner and down to their children", () => {
    const nav = new ChartNavigator(layoutChart(graph, "hourglass", 3));
    expect(nav.node(nav.move("root", "right"))!.person).toBe("sue");
    expect(nav.node(nav.move("root.p0", "down"))!.person).toBe("amy");
    expect(nav.node(nav.move("root.c0-0", "up"))!.key).toBe("root");
    expect(nav.node(nav.move("root", "up"))!.person).toBe("john");
    expect(nav.node(nav.move("root", "down"))!.person).toBe("amy");
  });
});

describe("the whole chart in a frame", () => {
  const bounds = { left: -132, top: 0, right: 2868, bottom: 504 }; // 3000 × 504, starting left of 0

  it("shrinks a chart until all of it fits, nothing cut off on either side", () => {
    const wide = { ...bounds, right: 1668 }; // 1800 wide
    const v = wholeChartView(wide, 1334, 560, 2 / 3);
    expect(v.scroll).toBeNull();
    expect(v.k).toBeCloseTo(1302 / 1800);
    // The leftmost and rightmost boxes' edges land inside the frame, margins equal.
    const left = v.x + wide.left * v.k;
    const right = v.x + wide.right * v.k;
    expect(left).toBeCloseTo(16);
    expect(right).toBeCloseTo(1334 - 16);
  });

  it("never enlarges a small chart", () => {
    const v = wholeChartView({ left: 12, top: 0, right: 276, bottom: 84 }, 1334, 560, 2 / 3);
    expect(v.k).toBe(1);
    expect(v.x + 12).toBeCloseTo((1334 - 264) / 2);
    expect(v.scroll).toBeNull();
  });

  it("past the legible minimum, keeps that scale and gives a canvas to scroll over", () => {
    const v = wholeChartView(bounds, 354, 560, 2 / 3);
    expect(v.k).toBe(2 / 3);
    expect(v.scroll).toEqual({ width: 3000 * (2 / 3) + 32, height: 560 });
    expect(v.x + bounds.left * v.k).toBeCloseTo(16);
    expect(v.x + bounds.right * v.k).toBeCloseTo(v.scroll!.width - 16);
  });

  it("a tall chart scrolls down, not only sideways", () => {
    const v = wholeChartView({ left: 0, top: 0, right: 300, bottom: 3000 }, 354, 560, 2 / 3);
    expect(v.scroll?.height).toBeCloseTo(2000 + 32);
    expect(v.y).toBeCloseTo(16);
  });
});
