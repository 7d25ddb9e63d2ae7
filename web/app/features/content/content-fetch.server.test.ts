import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startRecordingServer, type RecordingServer } from "../../lib/recording-server.test-support";
import {
  cacheLifetimeMs,
  ContentServiceError,
  createContentFetch,
  MAX_CACHE_BYTES,
  MAX_CACHE_ENTRIES,
} from "./content-fetch.server";

function fakeService(make: (url: string) => Response | Promise<Response> = () => Response.json({ ok: true })) {
  const calls: string[] = [];
  const fetch = vi.fn(async (input: string | URL | Request, _init?: RequestInit) => {
    const url = String(input);
    calls.push(url);
    return make(url);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

/** A content service that never answers: its fetch rejects as fetch does only when the request is aborted. */
function silentService(): typeof globalThis.fetch {
  return (_input: string | URL | Request, init?: RequestInit) =>
    new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
    });
}

describe("cacheLifetimeMs", () => {
  it.each([
    [null, 5000],
    ["", 5000],
    ["public", 5000],
    ["max-age=30", 30000],
    ["public, max-age=0", 0],
    ["max-age=10, s-maxage=60", 60000],
    ["no-store", 0],
    ["no-cache, max-age=100", 0],
    ["private, max-age=100", 0],
    ["max-age=abc", 5000],
  ])("%s → %d ms", (header, want) => {
    expect(cacheLifetimeMs(header, 5000)).toBe(want);
  });
});

describe("createContentFetch", () => {
  it("serves repeated GETs from the cache for 5 s by default", async () => {
    let clock = 1_000;
    const service = fakeService();
    const fetch = createContentFetch({ fetch: service.fetch, now: () => clock });
    const url = "http://cms.test/api/v2/documents/search?q=x";

    expect(await (await fetch(url)).json()).toEqual({ ok: true });
    clock += 4_999;
    expect(await (await fetch(url)).json()).toEqual({ ok: true });
    expect(service.calls).toHaveLength(1);

    clock += 1;
    await fetch(url);
    expect(service.calls).toHaveLength(2);
  });

  it("honours max-age", async () => {
    let clock = 0;
    const service = fakeService(() => Response.json([], { headers: { "cache-control": "max-age=60" } }));
    const fetch = createContentFetch({ fetch: service.fetch, now: () => clock });
    await fetch("http://cms.test/a");
    clock = 59_000;
    await fetch("http://cms.test/a");
    expect(service.calls).toHaveLength(1);
    clock = 60_000;
    await fetch("http://cms.test/a");
    expect(service.calls).toHaveLength(2);
  });

  it("does not cache max-age=0 or non-GET requests", async () => {
    const service = fakeService(() => Response.json({}, { headers: { "cache-control": "max-age=0" } }));
    const fetch = createContentFetch({ fetch: service.fetch });
    await fetch("http://cms.test/a");
    await fetch("http://cms.test/a");
    await fetch("http://cms.test/b", { method: "POST", body: "x" });
    await fetch("http://cms.test/b", { method: "POST", body: "x" });
    expect(service.calls).toHaveLength(4);
  });

  it("returns a fresh, readable body on every hit", async () => {
    const service = fakeService(() => new Response("hello", { headers: { "content-type": "text/plain" } }));
    const fetch = createContentFetch({ fetch: service.fetch });
    const first = await fetch("http://cms.test/t");
    const second = await fetch("http://cms.test/t");
    expect(await first.text()).toBe("hello");
    expect(await second.text()).toBe("hello");
    expect(second.headers.get("content-type")).toBe("text/plain");
  });

  it("keeps at most 1000 entries, dropping the least recently used", async () => {
    const service = fakeService();
    const fetch = createContentFetch({ fetch: service.fetch, now: () => 0 });
    for (let i = 0; i < MAX_CACHE_ENTRIES; i++) await fetch(`http://cms.test/${i}`);
    expect(fetch.cache.size).toBe(1000);
    await fetch("http://cms.test/0"); // touch: 0 becomes most recent
    await fetch("http://cms.test/new");
    expect(fetch.cache.size).toBe(1000);
    expect(fetch.cache.has("http://cms.test/0")).toBe(true);
    expect(fetch.cache.has("http://cms.test/1")).toBe(false);
    expect(service.calls).toHaveLength(1001);
  });

  it("keeps at most 4 MiB of bodies, dropping the least recently used", async () => {
    const body = "x".repeat(1024 * 1024);
    const service = fakeService(() => new Response(body));
    const fetch = createContentFetch({ fetch: service.fetch, now: () => 0 });
    expect(MAX_CACHE_BYTES).toBe(4 * 1024 * 1024);
    for (const page of ["a", "b", "c", "d"]) await fetch(`http://cms.test/${page}`);
    await fetch("http://cms.test/a"); // touch: a becomes most recent
    await fetch("http://cms.test/e");
    expect(fetch.cache.keys()).toEqual(["c", "d", "a", "e"].map((page) => `http://cms.test/${page}`));
    expect(fetch.cache.weight).toBe(4 * 1024 * 1024);
    expect(service.calls).toHaveLength(5);
  });

  it("does not keep an answer larger than its whole byte limit, but answers it", async () => {
    const service = fakeService(() => new Response("0123456789"));
    const fetch = createContentFetch({ fetch: service.fetch, maxBytes: 9 });
    expect(await (await fetch("http://cms.test/big")).text()).toBe("0123456789");
    await fetch("http://cms.test/big");
    expect(fetch.cache.size).toBe(0);
    expect(service.calls).toHaveLength(2);
  });

  it("fails non-2xx statuses with the spec's message and does not cache them", async () => {
    const service = fakeService(() => new Response("boom", { status: 503 }));
    const fetch = createContentFetch({ fetch: service.fetch });
    const url = "http://cms.test/api/v2";
    await expect(fetch(url)).rejects.toThrow(`Unexpected status code [503] on URL ${url}`);
    const error = await fetch(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentServiceError);
    expect((error as ContentServiceError).status).toBe(503);
    expect(service.calls).toHaveLength(2);
  });

  it("passes 404, 410 and 429 through for @prismicio/client to interpret", async () => {
    for (const status of [404, 410, 429]) {
      const service = fakeService(() => Response.json({ type: "api_notfound_error", message: "x" }, { status }));
      const fetch = createContentFetch({ fetch: service.fetch });
      const response = await fetch("http://cms.test/x");
      expect(response.status).toBe(status);
      await fetch("http://cms.test/x");
      expect(service.calls).toHaveLength(2);
    }
  });

  it("times out with '{url} response timeout'", async () => {
    const fetch = createContentFetch({ fetch: silentService(), timeoutMs: 20 });
    await expect(fetch("http://cms.test/slow")).rejects.toThrow("http://cms.test/slow response timeout");
  });

  it("reports a refused connection as a ContentServiceError", async () => {
    const down = vi.fn(async () => {
      throw new TypeError("fetch failed");
    });
    const fetch = createContentFetch({ fetch: down as unknown as typeof globalThis.fetch });
    await expect(fetch("http://cms.test/")).rejects.toBeInstanceOf(ContentServiceError);
  });

  it("lets the caller abort", async () => {
    const fetch = createContentFetch({ fetch: silentService(), timeoutMs: 10_000 });
    const controller = new AbortController();
    const pending = fetch("http://cms.test/slow", { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("createContentFetch against a real server", () => {
  let go: RecordingServer;
  beforeAll(async () => {
    go = await startRecordingServer();
  });
  afterAll(() => go.close());

  // Go's front door would gzip each loopback answer only for this process to inflate it.
  it("asks for an uncompressed answer (Accept-Encoding: identity), keeping the caller's headers", async () => {
    const response = await createContentFetch()(`${go.base}/content/api/v2`, { headers: { "X-Probe": "1" } });
    expect(await response.json()).toEqual({ ok: true });
    expect(go.seen[0]?.["accept-encoding"]).toBe("identity");
    expect(go.seen[0]?.["x-probe"]).toBe("1");
  });
});
