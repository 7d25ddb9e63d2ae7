// Scrolling after a navigation (seed-spec §2): to the element named by the
// URL's hash, retrying every second until it exists (content may still be
// arriving), or to the top of the page when there is no hash.

export const HASH_SCROLL_RETRY_MS = 1_000;

export interface ScrollTarget {
  scrollIntoView(options?: ScrollIntoViewOptions): void;
}

export interface ScrollEnvironment {
  findById(id: string): ScrollTarget | null;
  scrollToTop(): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** The element id a hash names: without "#", percent-decoded when valid. */
export function hashTargetId(hash: string): string {
  const raw = hash.startsWith("#") ? hash.slice(1) : hash;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Scrolls for a completed navigation. Returns a function that stops retrying. */
export function scrollAfterNavigation(hash: string, env: ScrollEnvironment, retryMs = HASH_SCROLL_RETRY_MS): () => void {
  const id = hashTargetId(hash);
  if (!id) {
    env.scrollToTop();
    return () => {};
  }
  const tryScroll = () => {
    const target = env.findById(id);
    if (!target) return false;
    target.scrollIntoView({ block: "start" });
    return true;
  };
  if (tryScroll()) return () => {};
  const handle = env.setInterval(() => {
    if (tryScroll()) env.clearInterval(handle);
  }, retryMs);
  return () => env.clearInterval(handle);
}

/** The browser's environment. */
export function browserScrollEnvironment(): ScrollEnvironment {
  return {
    findById: (id) => document.getElementById(id),
    scrollToTop: () => window.scrollTo({ top: 0, left: 0 }),
    setInterval: (fn, ms) => window.setInterval(fn, ms),
    clearInterval: (handle) => window.clearInterval(handle as number),
  };
}
