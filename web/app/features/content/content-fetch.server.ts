// The fetch that the content client uses: a small response cache in front of
// the content service, with the service's error texts (seed-spec §7, §8).
//
// - GET responses with a 2xx status are cached for 5 s, or for the response's
//   Cache-Control max-age; at most 1000 entries and 4 MiB of bodies, least recently
//   used first out (an answer at a ref is immutable: without the byte bound, queries
//   that visitors vary, such as an events search, would keep up to 1000 large bodies
//   in every worker).
// - Answers are asked for uncompressed (Accept-Encoding: identity): they come over
//   loopback, where compressing and inflating cost more than the bytes.
// - A request that takes too long fails with "{url} response timeout".
// - A non-2xx status fails with "Unexpected status code [status] on URL {url}",
//   except 404, 410 and 429, which @prismicio/client itself interprets
//   (not found / expired preview / stale ref retry / rate-limit retry).

import { LruCache } from "../../lib/lru";

export const DEFAULT_TTL_MS = 5_000;
export const MAX_CACHE_ENTRIES = 1_000;
export const MAX_CACHE_BYTES = 4 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 8_000;

/** Statuses passed through to @prismicio/client, which maps them to its own errors. */
const PASS_THROUGH_STATUSES = new Set([404, 410, 429]);

/** A failure talking to the content service. */
export class ContentServiceError extends Error {
  readonly status: number | undefined;
  readonly url: string;
  constructor(message: string, url: string, status?: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ContentServiceError";
    this.url = url;
    this.status = status;
  }
}

/**
 * How long a response may be cached, in ms: its max-age (s-maxage wins for a
 * shared cache like this one), 0 for no-store/no-cache/private, else `fallbackMs`.
 */
export function cacheLifetimeMs(cacheControl: string | null, fallbackMs: number): number {
  if (!cacheControl) return fallbackMs;
  const directives = new Map<string, string | true>();
  for (const part of cacheControl.split(",")) {
    const [rawName, ...rest] = part.trim().split("=");
    if (!rawName) continue;
    directives.set(rawName.toLowerCase(), rest.length ? rest.join("=").replace(/^"|"$/g, "") : true);
  }
  if (directives.has("no-store") || directives.has("no-cache") || directives.has("private")) return 0;
  for (const name of ["s-maxage", "max-age"]) {
    const value = directives.get(name);
    if (typeof value === "string" && /^\d+$/.test(value)) return Number(value) * 1000;
  }
  return fallbackMs;
}

interface CachedResponse {
  expiresAt: number;
  status: number;
  statusText: string;
  headers: [string, string][];
  body: ArrayBuffer;
}

export interface ContentFetchOptions {
  fetch?: typeof globalThis.fetch;
  ttlMs?: number;
  maxEntries?: number;
  /** The most the cached bodies may take together, in bytes. */
  maxBytes?: number;
  timeoutMs?: number;
  now?: () => number;
}

export interface ContentFetch {
  (input: string | URL | Request, init?: RequestInit): Promise<Response>;
  cache: LruCache<CachedResponse>;
}

/** Creates the caching, error-mapping fetch described at the top of this file. */
export function createContentFetch(options: ContentFetchOptions = {}): ContentFetch {
  const baseFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const cache = new LruCache<CachedResponse>(options.maxEntries ?? MAX_CACHE_ENTRIES, {
    max: options.maxBytes ?? MAX_CACHE_BYTES,
    weigh: (entry) => entry.body.byteLength,
  });

  const contentFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.toString() : input.url;
    const method = (init.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    const cacheable = method === "GET" && !init.body;

    if (cacheable) {
      const hit = cache.get(url);
      if (hit && hit.expiresAt > now()) return toResponse(hit);
      if (hit) cache.delete(url);
    }

    const response = await fetchWithTimeout(baseFetch, url, init, timeoutMs);

    if (response.ok) {
      const lifetime = cacheable ? cacheLifetimeMs(response.headers.get("cache-control"), ttlMs) : 0;
      if (lifetime <= 0) return response;
      const entry: CachedResponse = {
        expiresAt: now() + lifetime,
        status: response.status,
        statusText: response.statusText,
        headers: [...response.headers.entries()],
        body: await response.arrayBuffer(),
      };
      cache.set(url, entry);
      return toResponse(entry);
    }

    if (PASS_THROUGH_STATUSES.has(response.status)) return response;

    // Drain the body so the connection can be reused.
    await response.arrayBuffer().catch(() => undefined);
    throw new ContentServiceError(`Unexpected status code [${response.status}] on URL ${url}`, url, response.status);
  };

  return Object.assign(contentFetch, { cache });
}

function toResponse(entry: CachedResponse): Response {
  return new Response(entry.body.slice(0), {
    status: entry.status,
    statusText: entry.statusText,
    headers: entry.headers,
  });
}

async function fetchWithTimeout(
  baseFetch: typeof globalThis.fetch,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<Response> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const callerSignal = init.signal;
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal) {
    if (callerSignal.aborted) controller.abort(callerSignal.reason);
    else callerSignal.addEventListener("abort", onCallerAbort, { once: true });
  }
  // Go's front door would gzip a loopback answer only for this process to inflate it.
  const headers = new Headers(init.headers);
  headers.set("Accept-Encoding", "identity");
  try {
    return await baseFetch(url, { ...init, headers, signal: controller.signal });
  } catch (error) {
    if (timedOut) throw new ContentServiceError(`${url} response timeout`, url, undefined, { cause: error });
    if (callerSignal?.aborted) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ContentServiceError(`${url} request failed: ${reason}`, url, undefined, { cause: error });
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener("abort", onCallerAbort);
  }
}
