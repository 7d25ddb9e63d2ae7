import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { contentDocument, ENDPOINT, envelope, repository } from "./content-api.test-support";
import { createContentFetch } from "./content-fetch.server";
import {
  createContentClient,
  FORBIDDEN_UID_WILDCARD,
  getByUID,
  getNewsItem,
  getNewsPage,
  getUpcomingEvents,
  isPreviewRequest,
  drawnWithoutContent,
  pageUnavailable,
  requireDocument,
} from "./content.server";
import { RouterContextProvider } from "react-router";

const newsDoc = contentDocument("agm", "AGM");

/** A content service that answers from `respond`, recording every URL. */
function service(respond: (url: URL) => Response) {
  const urls: URL[] = [];
  const fetch = vi.fn(async (input: string | URL | Request) => {
    const url = new URL(String(input));
    urls.push(url);
    if (url.pathname.endsWith("/api/v2")) return Response.json(repository);
    return respond(url);
  });
  return { fetch: createContentFetch({ fetch: fetch as unknown as typeof globalThis.fetch }), urls };
}

describe("content client", () => {
  beforeEach(() => {
    process.env.LINEAGE_CONTENT_API = ENDPOINT;
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
  });
  afterEach(() => {
    delete process.env.LINEAGE_CONTENT_API;
    vi.restoreAllMocks();
  });

  it("queries LINEAGE_CONTENT_API with the master ref", async () => {
    const s = service(() => Response.json(envelope([newsDoc])));
    const result = await getNewsItem(createContentClient(undefined, s.fetch), "agm");
    expect(result).toEqual({ value: expect.objectContaining({ uid: "agm" }), unavailable: false });
    const search = s.urls.find((u) => u.pathname.endsWith("/documents/search"))!;
    expect(search.origin + search.pathname).toBe(`${ENDPOINT}/documents/search`);
    expect(search.searchParams.get("ref")).toBe("MASTER");
    expect(search.searchParams.getAll("q")).toEqual(['[[at(document.type, "news_item")]]', '[[at(my.news_item.uid, "agm")]]']);
    expect(search.searchParams.get("fetchLinks")).toBe("page.parent");
  });

  it("orders news newest first and pages it", async () => {
    const s = service((url) => Response.json(envelope([newsDoc], Number(url.searchParams.get("page")))));
    const result = await getNewsPage(createContentClient(undefined, s.fetch), 2, 10);
    expect(result.unavailable).toBe(false);
    const search = s.urls.find((u) => u.pathname.endsWith("/documents/search"))!;
    expect(search.searchParams.get("orderings")).toBe("[my.news_item.date desc,document.first_publication_date desc]");
    expect(search.searchParams.get("page")).toBe("2");
    expect(search.searchParams.get("pageSize")).toBe("10");
  });

  it("reads the preview ref from the request's io.prismic.preview cookie", async () => {
    const s = service(() => Response.json(envelope([newsDoc])));
    const request = new Request("http://site.test/news/agm", {
      headers: { cookie: "other=1; io.prismic.preview=https://cms.test/previews/abc?x=1" },
    });
    expect(isPreviewRequest(request)).toBe(true);
    await getNewsItem(createContentClient(request, s.fetch), "agm");
    const search = s.urls.find((u) => u.pathname.endsWith("/documents/search"))!;
    expect(search.searchParams.get("ref")).toBe("https://cms.test/previews/abc?x=1");
  });

  it("falls back to published content when the preview has expired", async () => {
    const s = service((url) =>
      url.searchParams.get("ref") === "OLD"
        ? Response.json({ type: "api_security_error", message: "This preview token has expired" }, { status: 404 })
        : Response.json(envelope([newsDoc])),
    );
    const request = new Request("http://site.test/", { headers: { cookie: "io.prismic.preview=OLD" } });
    const result = await getNewsItem(createContentClient(request, s.fetch), "agm");
    expect(result.value?.uid).toBe("agm");
    expect(result.unavailable).toBe(false);
  });

  it("treats an empty result as not found, not as a failure", async () => {
    const s = service(() => Response.json(envelope([])));
    const result = await getNewsItem(createContentClient(undefined, s.fetch), "missing");
    expect(result).toEqual({ value: null, unavailable: false });
    expect(() => requireDocument(result)).toThrow(expect.objectContaining({ status: 404 }));
  });

  it("logs a failing service and returns the empty value", async () => {
    const s = service(() => new Response("down", { status: 502 }));
    const result = await getNewsPage(createContentClient(undefined, s.fetch), 1);
    expect(result.unavailable).toBe(true);
    expect(result.value.results).toEqual([]);
    expect(console.error).toHaveBeenCalledWith(expect.stringContaining("Unexpected status code [502] on URL"));
    expect(() => requireDocument({ value: null, unavailable: true })).toThrow(expect.objectContaining({ status: 503 }));
  });

  it("survives a service that cannot be reached", async () => {
    const refused = createContentFetch({
      fetch: (async () => {
        throw new TypeError("fetch failed");
      }) as unknown as typeof globalThis.fetch,
    });
    const result = await getNewsPage(createContentClient(undefined, refused), 1);
    expect(result.unavailable).toBe(true);
  });

  it("refuses getByUID with language *", async () => {
    const s = service(() => Response.json(envelope([newsDoc])));
    const client = createContentClient(undefined, s.fetch);
    await expect(getByUID(client, "news_item", "agm", { lang: "*" })).rejects.toThrow(FORBIDDEN_UID_WILDCARD);
    expect(FORBIDDEN_UID_WILDCARD).toBe("FORBIDDEN. You can't use getByUID with *, use the predicates instead.");
    expect(s.urls).toHaveLength(0);
  });
});

describe("upcoming events", () => {
  beforeEach(() => {
    process.env.LINEAGE_CONTENT_API = ENDPOINT;
  });
  afterEach(() => {
    delete process.env.LINEAGE_CONTENT_API;
  });

  const eventAt = (uid: string, start: string) => ({ ...newsDoc, id: uid, uid, type: "event", data: { title: [], start, end: null } });

  /** Answers as the content API does: events starting strictly after the date.after moment, soonest first. */
  function eventService(events: ReturnType<typeof eventAt>[]) {
    return service((url) => {
      const after = /date\.after\(my\.event\.start, (-?\d+)\)/.exec(url.searchParams.getAll("q").join(""));
      if (!after) return Response.json(envelope([]));
      const pageSize = Number(url.searchParams.get("pageSize"));
      const starting = events
        .filter((e) => Date.parse(e.data.start.replace(/(\d{2})(\d{2})$/, "$1:$2")) > Number(after[1]))
        .sort((a, b) => a.data.start.localeCompare(b.data.start));
      return Response.json({ ...envelope(starting.slice(0, pageSize)), total_results_size: starting.length });
    });
  }
  /** The predicates of each search the service was asked. */
  const searches = (s: ReturnType<typeof service>) =>
    s.urls.filter((u) => u.pathname.endsWith("/documents/search")).map((u) => u.searchParams.getAll("q").join(""));

  it("asks the same URL for every render within a minute, so the second is answered from the cache", async () => {
    const s = eventService([eventAt("agm", "2026-12-01T10:00:00+0000")]);
    const first = await getUpcomingEvents(createContentClient(undefined, s.fetch), 3, new Date("2026-11-26T09:41:02.250Z"));
    const second = await getUpcomingEvents(createContentClient(undefined, s.fetch), 3, new Date("2026-11-26T09:41:59.999Z"));
    expect(first.value.map((e) => e.uid)).toEqual(["agm"]);
    expect(second.value.map((e) => e.uid)).toEqual(["agm"]);
    const asked = searches(s);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain(`date.after(my.event.start, ${Date.parse("2026-11-26T09:41:00Z")})`);
  });

  it("leaves out an event that started earlier in the minute", async () => {
    const s = eventService([eventAt("started", "2026-11-26T09:41:01+0000"), eventAt("later", "2026-11-26T18:00:00+0000")]);
    const result = await getUpcomingEvents(createContentClient(undefined, s.fetch), 3, new Date("2026-11-26T09:41:30Z"));
    expect(result.value.map((e) => e.uid)).toEqual(["later"]);
    expect(searches(s)).toHaveLength(1);
  });

  it("asks for the exact moment when events that started this minute would leave a full list short", async () => {
    const s = eventService([
      eventAt("started", "2026-11-26T09:41:01+0000"),
      eventAt("a", "2026-11-26T12:00:00+0000"),
      eventAt("b", "2026-11-27T12:00:00+0000"),
      eventAt("c", "2026-11-28T12:00:00+0000"),
    ]);
    const now = new Date("2026-11-26T09:41:30.500Z");
    const result = await getUpcomingEvents(createContentClient(undefined, s.fetch), 3, now);
    expect(result.value.map((e) => e.uid)).toEqual(["a", "b", "c"]);
    const asked = searches(s);
    expect(asked).toHaveLength(2);
    expect(asked[1]).toContain(`date.after(my.event.start, ${now.getTime()})`);
  });
});

describe("pageUnavailable", () => {
  it("is true when any part failed, and only then notes it on the request", () => {
    const ok = new RouterContextProvider();
    expect(pageUnavailable(ok)).toBe(false);
    expect(pageUnavailable(ok, false, false)).toBe(false);
    expect(drawnWithoutContent(ok)).toBe(false);
    const degraded = new RouterContextProvider();
    expect(pageUnavailable(degraded, false, true)).toBe(true);
    expect(drawnWithoutContent(degraded)).toBe(true);
    // A later loader of the same request that had everything does not undo it.
    expect(pageUnavailable(degraded, false)).toBe(false);
    expect(drawnWithoutContent(degraded)).toBe(true);
  });
});

describe("isPreviewRequest", () => {
  it("needs a non-empty cookie", () => {
    expect(isPreviewRequest(new Request("http://x.test/"))).toBe(false);
    expect(isPreviewRequest(new Request("http://x.test/", { headers: { cookie: "io.prismic.preview=" } }))).toBe(false);
  });
});
