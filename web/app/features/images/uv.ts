// The Universal Viewer (npm `universalviewer` 4.4.0), as the browser gets it: Go serves
// the package's dist/ under /uv/ (internal/server), the root layout declares the UMD
// bundle /uv/umd/UV.js (deferred) in the head of the pages that show a viewer (their
// route's handle says so, from its loader data: viewer-head.ts), and the bundle loads its
// ~190 chunks from its own folder. Other pages never fetch it (59 KB gzip). protocols.md §4.4.

import { UV_SCRIPT } from "./viewer-head";

export { UV_SCRIPT };
/** The viewer's stylesheet (scoped to `.uv`); the ImageViewer links it. */
export const UV_STYLESHEET = "/uv/uv.css";
/** How long to wait for UV.js before showing the first page image instead. */
export const UV_LOAD_TIMEOUT_MS = 20_000;

/** The part of UV's API we use: `UV.init(element, data)` returns a viewer. */
export interface UVViewer {
  on(event: string, cb: (...args: any[]) => void, ctx?: unknown): void;
  dispose(): void;
  resize(): void;
}

export interface UVGlobal {
  init(target: HTMLElement | string, data: UVInitialData): UVViewer;
}

/** UV's initial data (IIIFURLAdapter.getInitialData's keys). */
export interface UVInitialData {
  iiifManifestId: string;
  canvasIndex?: number;
  manifestIndex?: number;
  rotation?: number;
  xywh?: string;
  embedded?: boolean;
  locales?: { name: string; label?: string }[];
}

/** Events UV fires that the component listens to (UV's Events and IIIFEvents). */
export const UV_EVENTS = {
  configure: "configure",
  created: "created",
  canvasIndexChange: "canvasIndexChange",
  loadFailed: "loadFailed",
  error: "error",
} as const;

/**
 * Our overrides of UV's configuration, merged into the extension's own defaults by the
 * "configure" event. Off: the share and embed dialogues (their embed code points at
 * uv.html in an iframe on other sites, which this site does not offer), feedback, UV's
 * own bookmarks (members have the site's), "open", print, the locale toggle, UV's help
 * link (to universalviewer.io), and dropping a manifest onto the viewer (it would try to
 * load foreign manifests, which the CSP forbids anyway). Zoom controls stay visible
 * rather than fading out, so keyboard and magnifier users can find them. Settings are
 * not saved in localStorage: the page's own state is all there is.
 *
 * One page at a time (`pagingEnabled: false`): "paged" manifests would otherwise open as
 * two-page spreads, which halves the resolution of registers, and UV 4.4.0 throws on
 * "next" from the last spread of an odd number of pages ("reading 'getLabel'"). The
 * title over the image is off: the page around the viewer has the item's heading, and
 * UV's would be a second <h1>.
 */
const FOOTER = {
  bookmarkEnabled: false,
  downloadEnabled: true,
  embedEnabled: false,
  feedbackEnabled: false,
  fullscreenEnabled: true,
  moreInfoEnabled: true,
  openEnabled: false,
  printEnabled: false,
  shareEnabled: false,
} as const;

export const UV_CONFIG = {
  options: {
    dropEnabled: false,
    pagingEnabled: false,
    saveUserSettings: false,
  },
  modules: {
    headerPanel: { options: { localeToggleEnabled: false } },
    pagingHeaderPanel: { options: { localeToggleEnabled: false, helpEnabled: false } },
    // The image extension draws searchFooterPanel (mobileFooterPanel on small screens);
    // footerPanel is the other extensions'. Each needs the same switches.
    footerPanel: { options: FOOTER },
    searchFooterPanel: { options: FOOTER },
    mobileFooterPanel: { options: { ...FOOTER, helpEnabled: false } },
    openSeadragonCenterPanel: { options: { autoHideControls: false, titleEnabled: false } },
  },
} as const;

declare global {
  interface Window {
    UV?: UVGlobal;
  }
}

/**
 * UV's global once UV.js has run. On a page loaded as a viewer page the root layout's
 * deferred script has run before hydration; after a client-side navigation to one, the
 * layout's <script> element is React's and inert (React does not run the scripts it
 * renders), so this adds a script that runs, and waits for it. Rejects after `timeoutMs`.
 */
export function loadUV(timeoutMs = UV_LOAD_TIMEOUT_MS): Promise<UVGlobal> {
  if (window.UV) return Promise.resolve(window.UV);
  return new Promise((resolve, reject) => {
    let script = document.querySelector<HTMLScriptElement>(`script[src="${UV_SCRIPT}"][data-added]`);
    // The root layout's script is deferred and comes before the app's module scripts,
    // which run after it in document order: once the document is parsed, a script the
    // browser fetched (it has a resource timing entry) that left no UV has failed, and
    // waiting for it would only delay the fallback. One it never fetched is React's.
    if (!script && document.readyState !== "loading" && fetchedUV()) {
      reject(new Error(`${UV_SCRIPT} did not load`));
      return;
    }
    if (!script && document.readyState === "loading") {
      script = document.querySelector<HTMLScriptElement>(`script[src="${UV_SCRIPT}"]`);
    }
    if (!script) {
      script = document.createElement("script");
      script.src = UV_SCRIPT;
      script.async = true;
      script.dataset.added = "true";
      document.head.appendChild(script);
    }
    const done = () => {
      cleanup();
      if (window.UV) resolve(window.UV);
      else reject(new Error(`${UV_SCRIPT} loaded but defined no UV`));
    };
    const failed = () => {
      cleanup();
      reject(new Error(`${UV_SCRIPT} failed to load`));
    };
    const timer = window.setTimeout(() => {
      cleanup();
      if (window.UV) resolve(window.UV);
      else reject(new Error(`${UV_SCRIPT} did not load within ${timeoutMs} ms`));
    }, timeoutMs);
    // Polling covers a script that ran between the check above and the listeners.
    const poll = window.setInterval(() => window.UV && done(), 100);
    function cleanup() {
      window.clearTimeout(timer);
      window.clearInterval(poll);
      script!.removeEventListener("load", done);
      script!.removeEventListener("error", failed);
    }
    script.addEventListener("load", done);
    script.addEventListener("error", failed);
  });
}

function fetchedUV(): boolean {
  return performance.getEntriesByName(new URL(UV_SCRIPT, document.baseURI).href, "resource").length > 0;
}
