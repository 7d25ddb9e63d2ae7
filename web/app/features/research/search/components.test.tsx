import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, test } from "vitest";
import { RecordView, recordTitle } from "./RecordView";
import { ResultsTable } from "./ResultsTable";
import { collectionChoices, facetOptions } from "./SearchForm";
import { GlobalResults } from "./GlobalResults";
import type { CollectionSummary, ResearchRecord, SearchResult } from "./types";

const full: ResearchRecord = {
  id: 7,
  collection: { slug: "parish-baptisms", title: "Parish baptisms", kind: "record_set", access: "public" },
  record_type: "baptism",
  record_type_label: "Baptism",
  key: "PB7",
  date: "ABT 1612",
  year: 1612,
  date_range: { earliest: "1610-01-01", latest: "1614-12-31" },
  place: { text: "Halifax, Yorkshire", id: 222, path: "Halifax, Yorkshire, England" },
  persons: [
    { role: "principal", surname: "", given_names: "Mabel", sex: "F" },
    { role: "father", surname: "Smith", given_names: "Sidney", sex: "M" },
  ],
  transcript: "Mabel d. of Sidney Smith",
  source: "Register 1, p. 7",
  images: ["scans/pb7.jpg", "https://images.example.org/pb7-2.jpg"],
  events: [],
  access: "public",
  teaser: false,
};

// What the API sends a visitor for a members-only record (docs/research.md, Paywall).
const teaser: ResearchRecord = {
  ...full,
  id: 8,
  collection: { slug: "wills-index", title: "Index of wills", kind: "index", access: "members" },
  record_type: "will",
  record_type_label: "Will",
  key: null,
  date: null,
  date_range: null,
  place: null,
  persons: [{ role: "principal", surname: "Chadchurch", given_names: "John" }],
  transcript: null,
  source: null,
  images: [],
  access: "members",
  teaser: true,
};

const render = (node: React.ReactNode) => renderToStaticMarkup(<MemoryRouter>{node}</MemoryRouter>);

describe("RecordView", () => {
  test("a whole record: facts, persons, transcript, images as a list", () => {
    const html = render(<RecordView record={full} />);
    expect(html).toContain("<h1>Baptism: Mabel, 1612</h1>");
    expect(html).toContain("between <time dateTime=\"1610-01-01\">1 January 1610</time>");
    expect(html).toContain("Halifax, Yorkshire");
    expect(html).toContain('href="/research-hub/our-collections/record-sets/parish-baptisms"');
    expect(html).toContain("People in this record");
    expect(html).toContain("Sidney Smith");
    expect(html).toContain("Mabel d. of Sidney Smith");
    expect(html).toContain("<li><span>scans/pb7.jpg</span></li>");
    expect(html).toContain('<a href="https://images.example.org/pb7-2.jpg">');
    expect(html).not.toContain("Join to see the whole record");
  });

  test("the images slot replaces the list", () => {
    const html = render(<RecordView record={full} images={<div id="viewer">viewer</div>} />);
    expect(html).toContain('<div id="viewer">viewer</div>');
    expect(html).not.toContain("scans/pb7.jpg");
  });

  test("a teaser: the name, year and collection, and an invitation to join; nothing withheld is expected", () => {
    const html = render(<RecordView record={teaser} />);
    expect(html).toContain("<h1>Will: John Chadchurch, 1612</h1>");
    expect(html).toContain("Members only");
    expect(html).toContain("Join to see the whole record");
    expect(html).toContain('href="/subscribe?return_to=%2Fresearch-hub%2Four-collections%2Frecords%2F8"');
    expect(html).toContain(">Join or renew</a>");
    expect(html).toContain('href="/register"');
    expect(html).toContain('href="/sign-in?redirect=%2Fresearch-hub%2Four-collections%2Frecords%2F8"');
    expect(html).not.toContain("People in this record");
    expect(html).not.toContain("Source");
  });

  test("titles", () => {
    expect(recordTitle({ record_type_label: "Burial", persons: [], year: null })).toBe("Burial");
  });
});

describe("ResultsTable", () => {
  const row = (over: Partial<SearchResult>): SearchResult => ({
    id: 1,
    record_type: "baptism",
    record_type_label: "Baptism",
    collection: "parish-baptisms",
    collection_title: "Parish baptisms",
    date: "12 Mar 1850",
    year: 1850,
    place: "Guildford, Surrey",
    persons: [
      { role: "principal", surname: "Smith", given_names: "Henry" },
      { role: "father", surname: "Smith", given_names: "John" },
    ],
    match: 1,
    score: 90,
    access: "public",
    teaser: false,
    ...over,
  });

  test("the matched person links to the record; teasers say members only where fields are withheld", () => {
    const html = render(
      <ResultsTable
        caption="Records found"
        asked={{ surname: "Smith", given: "John" }}
        results={[row({}), row({ id: 2, teaser: true, date: null, place: null, match: 0, persons: [{ role: "principal", surname: "Smith", given_names: "Sarah" }] })]}
      />,
    );
    expect(html).toContain('<a href="/research-hub/our-collections/records/1" data-discover="true">John Smith</a>');
    expect(html).toContain("Henry Smith <span");
    expect(html).toContain('<a href="/research-hub/our-collections/records/2" data-discover="true">Sarah Smith</a>');
    // The badge and the place; the date cell shows the year, which the teaser keeps.
    expect(html.match(/Members only/g)?.length).toBe(2);
    expect(html).toContain("<td>1850</td>");
  });

  test("the match column says in words how close each record is, without raw scores", () => {
    const html = render(
      <ResultsTable caption="Records found" asked={{ surname: "Smith" }} results={[row({ score: 40 }), row({ id: 2, score: 30 }), row({ id: 3, score: 20 })]} />,
    );
    const cells = [...html.matchAll(/<td>([^<]*match)<\/td>/g)].map((m) => m[1]);
    expect(cells).toEqual(["Exact match", "Close match", "Partial match"]);
    expect(html).not.toMatch(/\((40|30|20)\)/);
  });
});

describe("facetOptions", () => {
  test("facet values with counts, without the empty value, plus chosen values the facet lacks", () => {
    expect(
      facetOptions(
        [
          { value: "1850", label: "1850s", count: 3 },
          { value: "", label: "No date", count: 1 },
        ],
        ["1850", "1900"],
        { "1900": "1900s" },
      ),
    ).toEqual([
      { value: "1850", label: "1850s", count: 3 },
      { value: "1900", label: "1900s" },
    ]);
  });
});

describe("GlobalResults", () => {
  const empty = { total: 0, total_exact: true, results: [], search: "" };
  test("four tables in the spec's order, empty ones saying so, see all links from the groups' searches", () => {
    const html = render(
      <GlobalResults
        answer={{
          q: "Ashworth",
          reading: { surname: "Ashworth", given: "", year: 0, year_pm: 0, place: "", text: "Ashworth", asked: "" },
          archive: empty,
          library: empty,
          index: { ...empty, total: 12000, total_exact: false, results: [], search: "surname=Ashworth&surname_mode=variants" },
          family_trees: {
            total: 1,
            total_exact: true,
            search: "surname=Ashworth&surname_mode=variants",
            results: [
              {
                tree: { slug: "ashworth-family", title: "The Ashworth family" },
                person: { id: "I1", name: "Abraham Ashworth", birth: { date: { text: "11 JUN 1908" }, place: "Rochdale" }, death: null },
                url: "/research-hub/our-collections/family-trees-record/ashworth-family~I1",
              },
            ],
          },
        }}
      />,
    );
    const order = ["global-archive", "global-family-trees", "global-index", "global-library"].map((id) => html.indexOf(`id="${id}"`));
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
    expect(html).toContain("No archive entries match “Ashworth”.");
    expect(html).toContain("No library books or journals match “Ashworth”.");
    expect(html).toContain('<a href="/research-hub/our-collections/family-trees-record/ashworth-family~I1" data-discover="true">Abraham Ashworth</a>');
    expect(html).toContain("<td>11 JUN 1908, Rochdale</td><td>—</td><td>The Ashworth family</td>");
    expect(html).toContain('href="/research-hub/our-collections/pedigree-search?surname=Ashworth&amp;surname_mode=variants"');
    expect(html).toContain("See all about 12,000 results in the indexes");
    expect(html).toContain('href="/research-hub/our-collections/searchexplore?surname=Ashworth"');
    expect(html).toContain("Showing Ashworth in the index records and family trees.");
  });

  test("says how the text was read, and what was widened", () => {
    const html = render(
      <GlobalResults
        answer={{
          q: "John Smith 1850",
          reading: { surname: "Smith", given: "John", year: 1850, year_pm: 10, place: "", text: "Smith, John, 1850 ± 10", asked: "Smith, John, 1850 ± 2" },
          archive: empty,
          library: empty,
          index: empty,
          family_trees: empty,
        }}
      />,
    );
    expect(html).toContain("Showing Smith, John, 1850 ± 10 (nothing for Smith, John, 1850 ± 2) in the index records and family trees.");
    expect(html).toContain("No index records match “Smith, John, 1850 ± 10”.");
    expect(html).toContain("No archive entries match “John Smith 1850”.");
  });

  test("text that names nobody has no reading", () => {
    const html = render(<GlobalResults answer={{ q: "1850", reading: null, archive: empty, library: empty, index: empty, family_trees: empty }} />);
    expect(html).not.toContain("Showing");
  });
});

describe("collectionChoices", () => {
  test("keeps what the form draws and nothing else, so the page does not carry the rest", () => {
    const wills: CollectionSummary = {
      slug: "wills-index",
      kind: "index",
      title: "Index of wills",
      description: "Wills proved in the church courts.",
      access: "members",
      count: 150,
    };
    const withDates = { ...wills, created_at: "2026-11-26T09:09:04Z", updated_at: "2026-11-26T09:09:04Z" };
    expect(collectionChoices([withDates])).toEqual([{ slug: "wills-index", title: "Index of wills", access: "members" }]);
    expect(collectionChoices([])).toEqual([]);
  });
});
