// The viewer as the server renders it: the nested list of the chart's people is there
// for screen readers and browsers without JavaScript, and the SVG chart is not (it
// mounts after hydration).
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { ChartGraph } from "./chart";
import { TreeViewer } from "./TreeViewer";

const graph: ChartGraph = {
  root: "I3",
  people: [
    { id: "I1", name: "John Ashworth", sex: "M", living: false, years: "1790–1861" },
    { id: "I2", name: "Betty Kay", sex: "F", living: false, years: "1795–1850" },
    { id: "I3", name: "Thomas Ashworth", sex: "M", living: false, years: "1820–1890" },
    { id: "I4", name: "Mary Howarth", sex: "F", living: false, years: "" },
    { id: "I5", name: "Living", sex: "F", living: true, years: "" },
  ],
  families: [
    { id: "F1", partners: ["I1", "I2"], children: ["I3"] },
    { id: "F2", partners: ["I3", "I4"], children: ["I5"] },
  ],
};

function render(chart: "pedigree" | "hourglass", g: ChartGraph | null = graph) {
  const Stub = createRoutesStub([
    { path: "/research-hub/our-collections/family-trees/demo", Component: () => <TreeViewer tree="demo" graph={g} state={{ person: "I3", chart, generations: 3 }} /> },
  ]);
  return renderToString(<Stub initialEntries={["/research-hub/our-collections/family-trees/demo"]} />);
}

/** The list part of the viewer's HTML. */
const listOf = (html: string) => html.slice(html.indexOf("People in this chart"));

describe("TreeViewer on the server", () => {
  it("renders the people as nested lists and no chart", () => {
    const page = render("hourglass");
    expect(page).not.toContain("<svg");
    expect(page).toContain("People in this chart");
    const html = listOf(page);
    expect(html).toContain('aria-label="Ancestors of Thomas Ashworth"');
    expect(html).toContain('aria-label="Descendants of Thomas Ashworth"');
    expect(html).toMatch(/Father<!-- -->: <\/span><a href="\/research-hub\/our-collections\/family-trees-record\/demo~I1"[^>]*>John Ashworth<\/a>/);
    expect(html).toContain('href="/research-hub/our-collections/family-trees/demo?person=I1&amp;chart=hourglass&amp;generations=3#viewer"');
    expect(html).toMatch(/Partner<!-- -->: <\/span><a [^>]*>Mary Howarth<\/a>/);
    expect(html).toMatch(/Daughter<!-- -->: <\/span><a [^>]*>Living<\/a>/);
  });

  it("keeps to the chart kind: a pedigree lists ancestors only", () => {
    const html = listOf(render("pedigree"));
    expect(html).toContain("Betty Kay");
    expect(html).not.toContain("Mary Howarth");
    expect(html).not.toContain("Descendants of");
  });

  it("says so when there is nobody to show", () => {
    expect(render("pedigree", null)).toContain("There is nobody to show in this tree yet.");
  });
});
