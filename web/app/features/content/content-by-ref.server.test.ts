// The parsed answers kept per (ref, query) by cacheParsedByRef: shared between
// visitors' renders at the master ref, never for a preview, and never after a publish.
import { asText, type Query, type RichTextField } from "@prismicio/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LruCache } from "../../lib/lru";
import { contentDocument, ENDPOINT, envelope } from "./content-api.test-support";
import { createContentFetch } from "./content-fetch.server";
import { createContentClient, createParsedCache, getHome, getNewsItem, getNewsPage, PARSED_CACHE_CHARS } from "./content.server";

/**
 * A content API like Go's: the repository's refs are no-cache, a search at a ref is
 * immutable; `titles` maps a ref to the title its documents have there.
 */
function contentApi(titles: Record<string, string>) {
  const state = { master: "MASTER1" };
  const searches: string[] = [];
  const fetch = vi.fn(async (input: string | URL | Request) => {
    const url = new URL(String(input));
    if (url.pathname.endsWith("/api/v2")) {
      return Response.json(
        { refs: [{ id: "master", ref: state.master, label: "Master", isMasterRef: true }], types: {}, languages: [], tags: [], forms: {}, bookmarks: {}, experiments: {} },
        { headers: { "Cache-Control": "no-cache" } },
      );
    }
    const ref = url.searchParams.get("ref") ?? "";
    searches.push(ref);
    const title = titles[ref];
    if (!title) return Response.json({ type: "api_security_error", message: "This preview token has expired" }, { status: 404 });
    const type = url.searchParams.getAll("q").some((q) => q.includes('"home"')) ? "home" : "news_item";
    return Response.json(envelope([contentDocument("agm", title, type)]), {
      headers: { "Cache-Control": ref.startsWith("MASTER") ? "public, max-age=31536000, immutable" : "private, no-store" },
    });
  });
  return { state, searches, fetch: createContentFetch({ fetch: fetch as unknown as typeof globalThis.fetch }) };
}

const visitor = () => new Request("http://site.test/news/agm");
const editor = (ref: string) => new Request("http://site.test/news/agm", { headers: { cookie: `io.prismic.preview=${ref}` } });
const titleOf = (d: { data: { title: RichTextField } } | null) => (d ? asText(d.data.title) : undefined);

describe("content cached by ref, parsed", () => {
  beforeEach(() => {
    process.env.LINEAGE_CONTENT_API = ENDPOINT;
  });
  afterEach(() => {
    delete process.env.LINEAGE_CONTENT_API;
  });

  it("answers a query at the master ref with the same parsed, frozen answer on every render", async () => {
    const api = contentApi({ MASTER1: "Published" });
    const parsed = new LruCache<Query>(10);
    const first = await getNewsPage(createContentClient(visitor(), api.fetch, parsed), 1, 3);
    const second = await getNewsPage(createContentClient(visitor(), api.fetch, parsed), 1, 3);
    expect(second.value.results).toBe(first.value.results); // not parsed again
    expect(Object.isFrozen(first.value.results[0])).toBe(true);
    const home1 = await getHome(createContentClient(visitor(), api.fetch, parsed)); // getSingle → getFirst
    const home2 = await getHome(createContentClient(visitor(), api.fetch, parsed));
    expect(home2.value).toBe(home1.value);
    expect(parsed.keys().every((url) => new URL(url).searchParams.get("ref") === "MASTER1")).toBe(true);
  });

  it("bounds the kept answers by the length of their JSON", async () => {
    const api = contentApi({ MASTER1: "Published" });
    const parsed = createParsedCache();
    const page1 = await getNewsPage(createContentClient(visitor(), api.fetch, parsed), 1, 3);
    await getNewsPage(createContentClient(visitor(), api.fetch, parsed), 2, 3);
    expect(parsed.size).toBe(2);
    expect(parsed.weight).toBeGreaterThan(2 * JSON.stringify(page1.value.results).length);
    expect(parsed.maxWeight).toBe(PARSED_CACHE_CHARS);

    const tiny = createParsedCache(parsed.weight / 2 + 1); // room for one answer of two
    await getNewsPage(createContentClient(visitor(), api.fetch, tiny), 1, 3);
    await getNewsPage(createContentClient(visitor(), api.fetch, tiny), 2, 3);
    expect(tiny.size).toBe(1);
    const again = await getNewsPage(createContentClient(visitor(), api.fetch, tiny), 2, 3);
    expect(titleOf(again.value.results[0] ?? null)).toBe("Published");
  });

  it("never keeps a preview's answer nor gives it to a visitor", async () => {
    const api = contentApi({ MASTER1: "Published", PREVIEW9: "Draft" });
    const parsed = new LruCache<Query>(10);
    const draft = await getNewsItem(createContentClient(editor("PREVIEW9"), api.fetch, parsed), "agm");
    expect(titleOf(draft.value)).toBe("Draft");
    expect(parsed.size).toBe(0);
    const published = await getNewsItem(createContentClient(visitor(), api.fetch, parsed), "agm");
    expect(titleOf(published.value)).toBe("Published");
    // And the other way round: a cached master answer is not what the editor sees.
    const again = await getNewsItem(createContentClient(editor("PREVIEW9"), api.fetch, parsed), "agm");
    expect(titleOf(again.value)).toBe("Draft");
    expect(api.searches.filter((r) => r === "PREVIEW9")).toHaveLength(2); // asked each time
  });

  it("shows a publish at the very next render (the master ref is not kept)", async () => {
    const api = contentApi({ MASTER1: "Before", MASTER2: "After" });
    const parsed = new LruCache<Query>(10);
    expect(titleOf((await getNewsItem(createContentClient(visitor(), api.fetch, parsed), "agm")).value)).toBe("Before");
    api.state.master = "MASTER2";
    expect(titleOf((await getNewsItem(createContentClient(visitor(), api.fetch, parsed), "agm")).value)).toBe("After");
  });

  it("falls back to the master ref's cached answer when a preview has expired", async () => {
    const api = contentApi({ MASTER1: "Published" });
    const parsed = new LruCache<Query>(10);
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const result = await getNewsItem(createContentClient(editor("GONE"), api.fetch, parsed), "agm");
    vi.restoreAllMocks();
    expect(titleOf(result.value)).toBe("Published");
  });
});
