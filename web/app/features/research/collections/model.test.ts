import { describe, expect, it } from "vitest";
import {
  RESERVED_SLUGS,
  apiSearchParams,
  collectionPath,
  countText,
  dateSpan,
  firstPageHref,
  groupByKind,
  hasCriteria,
  keyPerson,
  nextPageHref,
  parseSearchForm,
  personName,
  searchFields,
  totalText,
  type Collection,
} from "./model";

const col = (slug: string, kind: string, title = slug, count = 1): Collection => ({ slug, kind, title, description: "", access: "public", count });

describe("where collections live", () => {
  it.each([
    ["record_set", "parish-baptisms", "/research-hub/our-collections/record-sets/parish-baptisms"],
    ["index", "wills-index", "/research-hub/our-collections/indexes/wills-index"],
    ["memorial_cards", "memorial-cards", "/research-hub/our-collections/memorial-cards/memorial-cards"],
    ["birth_briefs", "birth-briefs", "/research-hub/our-collections/birth-briefs?collection=birth-briefs"],
    ["library", "society-library", "/research-hub/our-collections/society-library"],
    ["archive", "society-archive", "/research-hub/our-collections/society-archive"],
  ])("%s %s → %s", (kind, slug, path) => {
    expect(collectionPath({ kind, slug })).toBe(path);
  });

  it("reserves the kind routes' segments", () => {
    for (const s of ["memorial-cards", "record-sets", "indexes", "birth-briefs", "searchexplore", "records", "family-trees", "family-trees-record", "pedigree-search"]) {
      expect(RESERVED_SLUGS.has(s)).toBe(true);
    }
    expect(RESERVED_SLUGS.has("society-library")).toBe(false);
  });

  it("groups by kind in the overview's order, titles sorted, unknown kinds last", () => {
    const groups = groupByKind([col("b", "library"), col("z", "record_set", "Zeta"), col("a", "record_set", "Alpha"), col("q", "photos")]);
    expect(groups.map((g) => g.kind)).toEqual(["record_set", "library", "photos"]);
    expect(groups[0].collections.map((c) => c.title)).toEqual(["Alpha", "Zeta"]);
  });
});

describe("texts", () => {
  it("counts records and catalogue entries", () => {
    expect(countText({ kind: "record_set", count: 1050 })).toBe("1,050 records");
    expect(countText({ kind: "index", count: 1 })).toBe("1 record");
    expect(countText({ kind: "library", count: 240 })).toBe("240 catalogue entries");
    expect(countText({ kind: "archive", count: 1 })).toBe("1 catalogue entry");
  });
  it("spans years", () => {
    expect(dateSpan(1850, 1859)).toBe("1850–1859");
    expect(dateSpan(null, null)).toBeNull();
    expect(dateSpan(1850, null)).toBe("from 1850");
  });
  it("says totals, estimated ones as 'about'", () => {
    expect(totalText(1, true)).toBe("1 result");
    expect(totalText(12000, false)).toBe("about 12,000 results");
  });
  it("names the matched person", () => {
    const r = { match: 1, persons: [{ role: "principal", surname: "Smith", given_names: "Henry" }, { role: "father", surname: "Smith", given_names: "John" }] };
    expect(personName(keyPerson(r))).toBe("Smith, John");
    expect(personName({ role: "principal", surname: "", given_names: "" })).toBe("(no name)");
    expect(personName(keyPerson({ match: 5, persons: [{ role: "x", surname: "Ng", given_names: "" }] }))).toBe("Ng");
  });
});

describe("the search form", () => {
  it("reads the query string, dropping unknown values", () => {
    const f = parseSearchForm(
      new URLSearchParams("surname=%20Smith%20&surname_mode=bogus&year=1850&year_pm=3&county=37&decade=1855&collection=a&collection=b,c&collection=d&role=father&sort=name&relative_role=aunt"),
    );
    expect(f.surname).toBe("Smith");
    expect(f.surname_mode).toBe("");
    expect(f.year_pm).toBe("");
    expect(f.county).toBe("37");
    expect(f.decade).toBe("");
    expect(f.collection).toEqual(["a", "b", "c"]);
    expect(f.role).toEqual(["father"]);
    expect(f.sort).toBe("name");
    expect(f.relative_role).toBe("");
  });

  it("knows when the visitor asked for something", () => {
    expect(hasCriteria(parseSearchForm(new URLSearchParams("year_pm=2&sort=date&surname_mode=exact&relative_role=any")))).toBe(false);
    expect(hasCriteria(parseSearchForm(new URLSearchParams("given=John")))).toBe(true);
    expect(hasCriteria(parseSearchForm(new URLSearchParams("collection=x")))).toBe(true);
  });

  it("keeps a search inside the page's collections", () => {
    const f = parseSearchForm(new URLSearchParams("collection=mine&collection=elsewhere"));
    expect(apiSearchParams(f, ["mine", "other"]).getAll("collection")).toEqual(["mine"]);
    const none = parseSearchForm(new URLSearchParams("collection=elsewhere"));
    expect(apiSearchParams(none, ["mine", "other"]).getAll("collection")).toEqual(["mine", "other"]);
  });

  it("sends only meaningful parameters, and browses by date without a surname", () => {
    const browse = apiSearchParams(parseSearchForm(new URLSearchParams("year_pm=2&relative_role=father")), ["c"]);
    expect(browse.toString()).toBe("collection=c&sort=date&limit=20");
    const p = apiSearchParams(parseSearchForm(new URLSearchParams("surname=Smith&surname_mode=exact&year=1850&year_pm=2&decade=1840&county=37&relative=John&relative_role=father&after=abc")), ["c"]);
    expect(Object.fromEntries(p)).toEqual({
      surname: "Smith",
      surname_mode: "exact",
      year: "1850",
      year_pm: "2",
      place: "37",
      collection: "c",
      relative: "John",
      relative_role: "father",
      limit: "20",
      after: "abc",
    });
    const typed = apiSearchParams(parseSearchForm(new URLSearchParams("place=Guildford&county=37&decade=1840")), ["c"]);
    expect(typed.get("place")).toBe("Guildford");
    expect(typed.get("decade")).toBe("1840");
  });

  it("pages with `after` and returns to the first page", () => {
    const s = new URLSearchParams("surname=Smith&after=old");
    expect(nextPageHref("/p", s, "new")).toBe("/p?surname=Smith&after=new");
    expect(firstPageHref("/p", s)).toBe("/p?surname=Smith");
    expect(firstPageHref("/p", new URLSearchParams("after=x"))).toBe("/p");
  });
});

describe("a collection's fields follow its record types", () => {
  it("baptisms ask for a parent", () => {
    const f = searchFields(["baptism"]);
    expect(f.relative?.label).toBe("Parent's name");
    expect(f.relative?.roles.map((r) => r.value)).toEqual(["father", "mother"]);
    expect(f.roles.map((r) => r.value)).toEqual(["principal", "father", "mother"]);
    expect(f.recordTypes).toBe(false);
  });
  it("marriages ask for a spouse", () => {
    const f = searchFields(["marriage"]);
    expect(f.relative).toEqual({ label: "Spouse's name", roles: [{ value: "spouse", label: "Spouse" }] });
  });
  it("memorial cards have no relative field and no role filter", () => {
    const f = searchFields(["memorial_card"]);
    expect(f.relative).toBeNull();
    expect(f.roles).toEqual([]);
  });
  it("several types offer the record type filter and a general relative", () => {
    const f = searchFields(["baptism", "marriage"]);
    expect(f.recordTypes).toBe(true);
    expect(f.relative?.label).toBe("Relative's name");
  });
  it("an unknown type still offers a relative", () => {
    expect(searchFields(["inquest"]).relative?.label).toBe("Relative's name");
    expect(searchFields([]).relative).toBeNull();
  });
});
