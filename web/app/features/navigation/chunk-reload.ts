// A code chunk that fails to load (usually: a new release replaced the
// assets this page was built with) is fixed by reloading the page. Reload at
// most once per 60 s, remembered in sessionStorage, so a chunk that is really
// broken cannot put the page into a reload loop (seed-spec §4, §9).

export const CHUNK_RELOAD_THROTTLE_MS = 60_000;
export const CHUNK_RELOAD_STORAGE_KEY = "lineage:chunk-reload-at";

const CHUNK_ERROR_PATTERNS = [
  /Failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /Importing a module script failed/i,
  /Unable to preload CSS/i,
  /Loading (CSS )?chunk [\w-]+ failed/i,
  /ChunkLoadError/i,
];

/** True for the errors browsers and Vite raise when a code chunk cannot be loaded. */
export function isChunkLoadError(error: unknown): boolean {
  if (!error || typeof error !== "object") return typeof error === "string" && CHUNK_ERROR_PATTERNS.some((p) => p.test(error));
  const { name, message } = error as { name?: unknown; message?: unknown };
  const text = `${typeof name === "string" ? name : ""}: ${typeof message === "string" ? message : ""}`;
  return CHUNK_ERROR_PATTERNS.some((p) => p.test(text));
}

interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/**
 * Reloads unless a reload for the same reason happened in the last 60 s.
 * Returns whether it reloaded.
 */
export function reloadForChunkError(
  storage: StorageLike | null,
  reload: () => void,
  now: number = Date.now(),
): boolean {
  let last = NaN;
  try {
    last = Number(storage?.getItem(CHUNK_RELOAD_STORAGE_KEY));
  } catch {
    // storage can be blocked; then we simply reload
  }
  if (Number.isFinite(last) && now - last >= 0 && now - last < CHUNK_RELOAD_THROTTLE_MS) return false;
  try {
    storage?.setItem(CHUNK_RELOAD_STORAGE_KEY, String(now));
  } catch {
    // without storage we cannot throttle; reloading once is still right
  }
  reload();
  return true;
}

function sessionStorageOrNull(): StorageLike | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** Reloads the page for a chunk error (throttled). Browser only. */
export function handleChunkError(error: unknown): boolean {
  if (typeof window === "undefined" || !isChunkLoadError(error)) return false;
  return reloadForChunkError(sessionStorageOrNull(), () => window.location.reload());
}

/**
 * Listens for chunk failures that no error boundary sees: Vite's preload
 * errors and unhandled promise rejections. Returns a function that stops.
 */
export function watchChunkErrors(): () => void {
  const onPreloadError = (event: Event) => {
    const payload = (event as Event & { payload?: unknown }).payload;
    if (reloadForChunkError(sessionStorageOrNull(), () => window.location.reload())) event.preventDefault();
    else console.error("Code chunk failed to load", payload);
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    if (handleChunkError(event.reason)) event.preventDefault();
  };
  window.addEventListener("vite:preloadError", onPreloadError);
  window.addEventListener("unhandledrejection", onRejection);
  return () => {
    window.removeEventListener("vite:preloadError", onPreloadError);
    window.removeEventListener("unhandledrejection", onRejection);
  };
}
