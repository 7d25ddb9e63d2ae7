import { describe, expect, test } from "vitest";
import {
  apiParams,
  describeQuery,
  describeSearch,
  emptyQuery,
  hasAnyField,
  isoDateText,
  isSearch,
  listOf,
  pageParams,
  personName,
  readGlobalQuery,
  readQuery,
  recordPath,
  resultsText,
  matchLabel,
  searchUrl,
  seeAllUrl,
  toggleValue,
  withChanges,
} from "./query";

const read = (qs: string) => readQuery(new URLSearchParams(qs));

describe("readQuery", () => {
  test("reads every field, trimmed", () => {
    const q = read(
      "surname=+Smith+&surname_mode=soundex&given=John&year=1850&year_pm=5&place=Guildford&relative=Mary&relative_role=mother&sort=date&after=abc",
    );
    expect(q).toMatchObject({
      surname: "Smith",
      surname_mode: "soundex",
      given: "John",
      year: "1850",
      year_pm: "5",
      place: "Guildford",
      relative: "Mary",
      relative_role: "mother",
      sort: "date",
      after: "abc",
    });
  });

  test("lists: repeated and comma-separated, without empties or duplicates", () => {
    const q = read("collection=a&collection=b,c&collection=a&collection=&record_type=baptism,,burial&role=father");
    expect(q.collection).toEqual(["a", "b", "c"]);
    expect(q.record_type).toEqual(["baptism", "burial"]);
    expect(q.role).toEqual(["father"]);
  });

  test("a field sent twice: the last value wins", () => {
    expect(read("surname_mode=exact&surname_mode=variants").surname_mode).toBe("variants");
  });

  test("missing fields are empty", () => {
    expect(read("")).toEqual(emptyQuery());
  });

  test("the global query", () => {
    expect(readGlobalQuery(new URLSearchParams("q=+John+Smith+"))).toBe("John Smith");
    expect(readGlobalQuery(new URLSearchParams(""))).toBe("");
  });
});

describe("listOf", () => {
  const params = new URLSearchParams("k=%20a%20,b&k=a&k=,&k=cdef&k=c");
  test("repeated and comma-separated values, trimmed, without empties and duplicates", () => {
    expect(listOf(params, "k")).toEqual(["a", "b", "cdef", "c"]);
    expect(listOf(params, "missing")).toEqual([]);
  });
  test("cuts each value to maxLength before dropping duplicates, and keeps at most max", () => {
    expect(listOf(params, "k", { maxLength: 1 })).toEqual(["a", "b", "c"]);
    expect(listOf(params, "k", { max: 2 })).toEqual(["a", "b"]);
  });
});

describe("isSearch and hasAnyField", () => {
  test.each([
    ["surname=Smith", true],
    ["year=1850", true],
    ["decade=1850", true],
    ["place=Surrey", true],
    ["county=37", true],
    ["collection=parish-baptisms", true],
    ["record_type=will", true],
    ["given=John", false],
    ["relative=Mary", false],
    ["role=father", false],
    ["", false],
  ])("%s → %s", (qs, expected) => {
    expect(isSearch(read(qs))).toBe(expected);
  });

  test("settings alone are not fields; narrowing fields are", () => {
    expect(hasAnyField(read("surname_mode=exact&year_pm=2&sort=date&relative_role=any"))).toBe(false);
    expect(hasAnyField(read("given=John"))).toBe(true);
    expect(hasAnyField(read("role=father"))).toBe(true);
  });
});

describe("apiParams", () => {
  test("sends what the API takes, lists repeated", () => {
    const params = apiParams(read("surname=Smith&surname_mode=exact&given=J&year=1850&year_pm=2&collection=a,b&record_type=baptism&role=father&sort=name&after=xyz"));
    expect(params.toString()).toBe(
      "surname=Smith&surname_mode=exact&given=J&year=1850&year_pm=2&record_type=baptism&collection=a&collection=b&role=father&sort=name&after=xyz",
    );
  });

  test("leaves out values that need another one, and defaults", () => {
    expect(apiParams(read("surname_mode=exact&year_pm=5&relative_role=father&year=&place=Kent")).toString()).toBe("place=Kent");
    expect(apiParams(read("surname=Smith&year=1850&year_pm=0&relative=Mary&relative_role=any&sort=relevance")).toString()).toBe(
      "surname=Smith&year=1850&relative=Mary",
    );
  });

  test("a decade only without a year", () => {
    expect(apiParams(read("decade=1850&surname=Smith")).get("decade")).toBe("1850");
    expect(apiParams(read("decade=1850&year=1862")).get("decade")).toBeNull();
  });

  test("the place field wins over the county facet", () => {
    expect(apiParams(read("county=37")).get("place")).toBe("37");
    expect(apiParams(read("county=37&place=Guildford")).getAll("place")).toEqual(["Guildford"]);
  });

  test("without paging: no sort, no cursor (the count endpoint)", () => {
    expect(apiParams(read("surname=Smith&sort=date&after=abc"), { withPaging: false }).toString()).toBe("surname=Smith");
  });
});

describe("page URLs", () => {
  test("round trip: the page URL reads back into the same search", () => {
    const q = read("record_type=burial&surname=Smith&collection=a&collection=b&year=1850&after=c1");
    const url = searchUrl(q);
    expect(url).toBe("/research-hub/our-collections/searchexplore?surname=Smith&year=1850&record_type=burial&collection=a&collection=b&after=c1");
    expect(readQuery(new URL(url, "http://x").searchParams)).toEqual(q);
  });

  test("equal searches have equal URLs whatever the order they came in", () => {
    expect(pageParams(read("year=1850&surname=Smith")).toString()).toBe(pageParams(read("surname=Smith&year=1850")).toString());
  });

  test("settings at their defaults are left out", () => {
    expect(searchUrl(read("surname=Smith&surname_mode=variants&year_pm=0&relative_role=any&sort=relevance&given="))).toBe(
      "/research-hub/our-collections/searchexplore?surname=Smith",
    );
    expect(searchUrl(read("surname=Smith&surname_mode=exact&sort=date"))).toBe("/research-hub/our-collections/searchexplore?surname=Smith&surname_mode=exact&sort=date");
  });

  test("an empty search is the bare page", () => {
    expect(searchUrl(emptyQuery())).toBe("/research-hub/our-collections/searchexplore");
  });

  test("changing anything but the cursor starts from the first page", () => {
    const q = read("surname=Smith&after=c1");
    expect(withChanges(q, { year: "1850" }).after).toBe("");
    expect(withChanges(q, { after: "c2" }).after).toBe("c2");
    expect(withChanges(q, {}).after).toBe("");
  });

  test("toggling a facet value", () => {
    const q = read("surname=Smith&collection=a&after=c1");
    expect(toggleValue(q, "collection", "b").collection).toEqual(["a", "b"]);
    expect(toggleValue(q, "collection", "a").collection).toEqual([]);
    expect(toggleValue(q, "collection", "b").after).toBe("");
  });

  test("see all: the API's search parameters as a page URL", () => {
    expect(seeAllUrl("given=John&surname=Smith&surname_mode=variants&year=1850&year_pm=2")).toBe(
      "/research-hub/our-collections/searchexplore?surname=Smith&given=John&year=1850&year_pm=2",
    );
  });

  test("record paths", () => {
    expect(recordPath(22)).toBe("/research-hub/our-collections/records/22");
  });
});

describe("texts", () => {
  test("totals: exact and estimated", () => {
    expect(resultsText(1, true)).toBe("1 result");
    expect(resultsText(0, true)).toBe("0 results");
    expect(resultsText(1234, true)).toBe("1,234 results");
    expect(resultsText(12000, false)).toBe("about 12,000 results");
  });

  test("a search described for the history", () => {
    expect(describeQuery(read("surname=Smith&given=John&year=1850&year_pm=2&place=Guildford"))).toBe("Smith, John, 1850 ± 2, Guildford");
    expect(describeQuery(read("surname=Sm*th&surname_mode=wildcard&decade=1840&collection=pb&role=father"), { collections: { pb: "Parish baptisms" } })).toBe(
      "Sm*th (wildcard), 1840s, Parish baptisms, as father",
    );
    expect(describeQuery(read("year=1850&year_pm=0&record_type=memorial_card&relative=Mary"))).toBe("1850, memorial card, with Mary");
  });

  test("ISO dates as words", () => {
    expect(isoDateText("1850-03-12")).toBe("12 March 1850");
    expect(isoDateText("0950-12-01")).toBe("1 December 950");
    expect(isoDateText("1850-13-01")).toBe("1850-13-01");
    expect(isoDateText("ABT 1850")).toBe("ABT 1850");
  });

  test("names and scores", () => {
    expect(personName({ surname: "Smith", given_names: "John" })).toBe("John Smith");
    expect(personName({ surname: "", given_names: "Mabel" })).toBe("Mabel");
    expect(personName({ surname: "", given_names: "" })).toBe("(no name recorded)");
  });

  test("a match in words, measured against what was asked", () => {
    // Surname alone: exact 40, a variant spelling 30, a sound-alike 20.
    expect(matchLabel(40, { surname: "Smith" })).toBe("Exact match");
    expect(matchLabel(30, { surname: "Smith" })).toBe("Close match");
    expect(matchLabel(20, { surname: "Smith" })).toBe("Partial match");
    // Surname, given names and year (best 75): a variant surname, an initial and a year
    // within the range (30 + 10 + 10) is partial; all exact is exact.
    expect(matchLabel(50, { surname: "Smith", given: "John", year: "1850" })).toBe("Partial match");
    expect(matchLabel(75, { surname: "Smith", given: "John", year: "1850" })).toBe("Exact match");
    expect(matchLabel(60, { surname: "Smith", given: "John", year: "1850" })).toBe("Close match");
    expect(matchLabel(30, { surname: "Smith", given: "John", decade: "1850", place: "Kent" })).toBe("Loose match");
    // A browse by collection asks nothing that scores.
    expect(matchLabel(0, {})).toBe("—");
    for (const score of [0, 20, 30, 40, 90]) expect(matchLabel(score, { surname: "x", given: "y" })).not.toMatch(/\d/);
  });

  test("saved and past searches described in words, not field names", () => {
    expect(describeSearch({ surname: "Smith", given: "John", year: "1850", year_pm: "2" })).toBe("Smith, John, 1850 ± 2");
    expect(describeSearch({ surname: "Smith", year: "1850", year_pm: "40", record_type: ["baptism", "burial"] })).toBe("Smith, 1850 ± 40, baptism, burial");
    expect(describeSearch({ surname: "Smyth", surname_mode: "soundex", decade: "1850" })).toBe("Smyth (soundex), 1850s");
    expect(describeSearch({ q: "John Smith 1850" })).toBe("“John Smith 1850”");
    expect(describeSearch({ surname: "Smith", collection: "wills-index" })).toBe("Smith, wills index");
    const text = describeSearch({ surname: "Smith", year: "1850", year_pm: "40", place: "Kent", relative: "Mary" });
    expect(text).not.toMatch(/year pm|surname:|_/);
  });
});
