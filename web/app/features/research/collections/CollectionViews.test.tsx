import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, test } from "vitest";
import { CollectionFacts, CollectionList } from "./CollectionViews";
import type { Collection, CollectionDetail } from "./model";

const collection = (slug: string, access: string): Collection => ({ slug, kind: "record_set", title: `Title ${slug}`, description: "", access, count: 3 });

describe("collection access", () => {
  // A level other than public or members was shown as "Free to search".
  test.each([
    ["public", "Free to search"],
    ["members", "Members only"],
    ["registered", "Free with an account"],
    ["scopes:member:overseas", "Overseas members only"],
    ["bogus", "Restricted"],
  ])("tags a %j collection in a list", (access, tag) => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <CollectionList collections={[collection("c", access)]} />
      </MemoryRouter>,
    );
    expect(html).toContain(`>${tag}</span>`);
    if (access !== "public") expect(html).not.toContain("Free to search");
  });

  test.each([
    ["public", "Free to search and read"],
    ["registered", "Free with an account: sign in or register to search and read"],
    ["scopes:member:overseas", "Overseas members only: visitors see names, years and the collection"],
  ])("describes a %j collection's access", (access, text) => {
    const detail: CollectionDetail = { collection: collection("c", access), record_types: [], decades: [], counties: [], year_from: null, year_to: null, items: [], next: null };
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <CollectionFacts detail={detail} />
      </MemoryRouter>,
    );
    expect(html).toContain(`<dd>${text}</dd>`);
  });
});
