import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, test } from "vitest";
import { TreePeople, type TreePeopleResult } from "./TreePeople";
import { readQuery } from "./query";
import { pedigreeSearchUrl, treePeopleRows, treeSearchParams } from "./tree-people";
import type { PersonSummary } from "../../trees";

const q = (s: string) => readQuery(new URLSearchParams(s));

describe("treeSearchParams", () => {
  test("no surname, no tree search", () => {
    expect(treeSearchParams(q(""))).toBeNull();
    expect(treeSearchParams(q("given=Mary&year=1850&place=Rochdale"))).toBeNull();
    expect(treeSearchParams(q("surname=%20%20"))).toBeNull();
  });

  test("carries surname, mode, given names, place and year ± in the pedigree search's names", () => {
    const p = treeSearchParams(q("surname=Ashworth&surname_mode=soundex&given=Albert&place=Rochdale&year=1850&year_pm=5"));
    expect(p?.toString()).toBe("surname=Ashworth&surname_mode=soundex&given=Albert&place=Rochdale&year=1850&year_pm=5");
  });

  test("defaults are left out; year_pm only with a year", () => {
    expect(treeSearchParams(q("surname=Ashworth&surname_mode=variants&year_pm=5"))?.toString()).toBe("surname=Ashworth");
    expect(treeSearchParams(q("surname=Ashworth&year=1850&year_pm=0"))?.toString()).toBe("surname=Ashworth&year=1850");
  });

  test("the records' own filters and a bare gazetteer id are not sent", () => {
    const p = treeSearchParams(q("surname=Lord&place=197&county=53&decade=1850&record_type=baptism&collection=x&role=father&relative=John"));
    expect(p?.toString()).toBe("surname=Lord");
  });

  test("the see all link is the pedigree search with the same parameters", () => {
    const p = treeSearchParams(q("surname=Ashworth&given=Ann"))!;
    expect(pedigreeSearchUrl(p)).toBe("/research-hub/our-collections/pedigree-search?surname=Ashworth&given=Ann#results");
  });
});

describe("treePeopleRows", () => {
  const person = (over: Partial<PersonSummary>): PersonSummary => ({ id: "I1", name: "Walter Ashworth", given: "Walter", surname: "Ashworth", sex: "M", living: false, ...over });
  const tree = { slug: "ashworth-family", title: "The Ashworth family of Lancashire" };

  test("a person links to their page, with birth and death years and the tree", () => {
    const [row] = treePeopleRows({
      results: [{ tree, person: person({ birth: { date: { text: "14 JUN 1797", year: 1797 }, place: "Oldham" }, death: { date: { text: "26 JUN 1848", year: 1848 }, place: "" } }) }],
    });
    expect(row).toEqual({
      key: "ashworth-family~I1",
      name: "Walter Ashworth",
      href: "/research-hub/our-collections/family-trees-record/ashworth-family~I1",
      born: "1797",
      died: "1848",
      tree: "The Ashworth family of Lancashire",
      treeHref: "/research-hub/our-collections/family-trees/ashworth-family",
    });
  });

  test("the living show only what comes: the name, no years", () => {
    const [row] = treePeopleRows({ results: [{ tree, person: person({ id: "I394", name: "Living", given: "", living: true, birth: { date: { text: "1933", year: 1933 }, place: "" } }) }] });
    expect([row.name, row.born, row.died]).toEqual(["Living", "", ""]);
  });

  test("missing dates, names and titles", () => {
    const [row] = treePeopleRows({ results: [{ tree: { slug: "t", title: "" }, person: person({ id: "@X 1", name: "", birth: null, death: { date: null, place: "Bury" } }) }] });
    expect([row.name, row.born, row.died, row.tree, row.href]).toEqual(["(no name recorded)", "", "", "t", "/research-hub/our-collections/family-trees-record/t~%40X%201"]);
  });
});

describe("<TreePeople />", () => {
  const html = (result: TreePeopleResult) =>
    renderToStaticMarkup(
      <MemoryRouter>
        <TreePeople result={result} />
      </MemoryRouter>,
    );
  const tree = { slug: "ashworth-family", title: "The Ashworth family of Lancashire" };
  const person: PersonSummary = { id: "I12", name: "Albert George Ashworth", given: "Albert George", surname: "Ashworth", sex: "M", living: false, birth: { date: { text: "1849", year: 1849 }, place: "Milnrow" } };

  test("people, the total and see all with the same parameters", () => {
    const out = html({ params: "surname=Ashworth&year=1850&year_pm=5", outcome: { ok: true, status: 200, body: { total: 31, offset: 0, limit: 10, trees: [{ ...tree, matches: 31 }], results: [{ tree, person }] } } });
    expect(out).toContain("In family trees");
    expect(out).toContain("(31 results)");
    expect(out).toContain('href="/research-hub/our-collections/family-trees-record/ashworth-family~I12" data-discover="true">Albert George Ashworth</a>');
    expect(out).toContain("<td>1849</td>");
    expect(out).toContain('href="/research-hub/our-collections/family-trees/ashworth-family" data-discover="true">The Ashworth family of Lancashire</a>');
    expect(out).toContain('href="/research-hub/our-collections/pedigree-search?surname=Ashworth&amp;year=1850&amp;year_pm=5#results"');
    expect(out).toContain("See all 31 results in the pedigree search");
  });

  test("none found: the empty message", () => {
    const out = html({ params: "surname=Zzyzx", outcome: { ok: true, status: 200, body: { total: 0, offset: 0, limit: 10, trees: [], results: [] } } });
    expect(out).toContain("No one in the society’s family trees matches this surname search.");
    expect(out).not.toContain("<table");
  });

  test("the trees API unavailable: a short notice, no table", () => {
    const out = html({ params: "surname=Ashworth", outcome: { ok: false, status: 503, errors: {} } });
    expect(out).toContain("The family trees cannot be searched at the moment");
    expect(out).not.toContain("<table");
  });
});
