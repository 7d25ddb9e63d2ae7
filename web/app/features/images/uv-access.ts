// What the site adds around the Universal Viewer (uv.ts) so that keyboard, zoom and
// magnifier users can use it (WCAG 2.2 AA): a configuration that fits a narrow viewer,
// focus kept inside the viewer when UV disables the control that had it, and the repair
// of OpenSeadragon's button images. The focus indicator is ImageViewer.module.css's.
import { UV_CONFIG } from "./uv";

/**
 * Below this width (CSS px) of the viewer's box, UV's side panels would cover or push
 * out the scan: at 200 % zoom of a 1366 px window the box is about 650 px, and UV's
 * 255 px contents panel plus its 30 px "more information" strip leave a sliver, with
 * the panel partly outside the box (which hides overflow). There the panels start
 * closed: their toggle buttons stay, and open them over the scan.
 */
export const NARROW_VIEWER_PX = 800;

/**
 * UV's layouts by window width (its `options.metrics`; UV's own: md from 768, lg from
 * 1024, xl from 1280 px). Below lg UV hides its header, which holds the page controls
 * (first, previous, page number, next, last), and moves the contents panel outside the
 * box. A 1366 px window at 200 % zoom is 683 px wide: it keeps the desktop layout (with
 * the panels closed, viewerConfig), down to 600 px; phones keep UV's phone layout.
 */
export const UV_METRICS = [
  { type: "sm", minWidth: 0 },
  { type: "md", minWidth: 480 },
  { type: "lg", minWidth: 600 },
  { type: "xl", minWidth: 1280 },
];

/**
 * UV_CONFIG for a viewer box `width` px wide. Everywhere: no attribution box over the
 * scan (UV's centre panel draws the manifest's requiredStatement as an overlay that
 * covers a third of the image at 200 % zoom; the page's "About this item" lists the same
 * statement: manifest.ts metadataPairs). Narrow: the side panels start closed.
 */
export function viewerConfig(width: number) {
  const narrow = width > 0 && width < NARROW_VIEWER_PX;
  const centre = { ...UV_CONFIG.modules.openSeadragonCenterPanel.options, requiredStatementEnabled: false };
  return {
    ...UV_CONFIG,
    options: { ...UV_CONFIG.options, metrics: UV_METRICS },
    modules: {
      ...UV_CONFIG.modules,
      centerPanel: { options: { requiredStatementEnabled: false } },
      openSeadragonCenterPanel: { options: centre },
      leftPanel: { options: { panelOpen: !narrow } },
      contentLeftPanel: { options: { panelOpen: !narrow } },
      moreInfoRightPanel: { options: { panelOpen: false } },
    },
  };
}

/**
 * OpenSeadragon (inside UV.js) builds its navigation buttons from `prefixUrl + image`;
 * UV gives it 1×1 data: GIFs and no prefix, so OpenSeadragon's default "/images/" is
 * kept and the browser asks this site for `/images/data:image/gif;base64,…` (a 404
 * and a console error per viewer). UV offers no option for it and OpenSeadragon is not
 * reachable from outside the bundle, so the `src` setter of images is wrapped to drop
 * that prefix from a data: URL: nothing else can produce such an address. Idempotent.
 */
const OSD_DEFAULT_PREFIX = "/images/data:";
let srcRepaired = false;
export function repairOpenSeadragonImages(): void {
  if (srcRepaired || typeof HTMLImageElement === "undefined") return;
  const descriptor = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
  const set = descriptor?.set;
  if (!descriptor || !set) return;
  Object.defineProperty(HTMLImageElement.prototype, "src", {
    ...descriptor,
    set(this: HTMLImageElement, value: string) {
      const v = typeof value === "string" && value.startsWith(OSD_DEFAULT_PREFIX) ? value.slice("/images/".length) : value;
      set.call(this, v);
    },
  });
  srcRepaired = true;
}

const FOCUSABLE = 'button, input, a[href], [tabindex]:not([tabindex="-1"])';

function usable(el: Element | null): el is HTMLElement {
  if (!(el instanceof HTMLElement) || !el.isConnected) return false;
  if (el.matches(":disabled, .disabled, [aria-disabled='true']")) return false;
  return el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
}

/**
 * Where focus goes when the control that had it is disabled or removed by UV (UV
 * disables "Next image" and "Last image" on the last page, and the browser then drops
 * focus to <body>, WCAG 2.4.3): the page number box, which says where the reader now is;
 * else an enabled control beside the lost one; else the viewer's box itself.
 */
export function focusFallback(root: HTMLElement, lost: Element | null): HTMLElement {
  const pageBox = root.querySelector(".headerPanel input.autocompleteText");
  if (usable(pageBox)) return pageBox;
  const siblings = lost?.parentElement ? Array.from(lost.parentElement.querySelectorAll(FOCUSABLE)) : [];
  const beside = siblings.find(usable);
  if (beside) return beside;
  if (!root.hasAttribute("tabindex")) root.tabIndex = -1;
  return root;
}

/**
 * Keeps keyboard focus inside the viewer when UV disables or removes the focused
 * control. Focus that the visitor moves elsewhere (a click outside, Tab) is left alone:
 * only a control that is no longer usable gives focus back. Returns the cleanup.
 */
export function keepFocusInViewer(root: HTMLElement): () => void {
  let timer = 0;
  const onFocusOut = (event: FocusEvent) => {
    if (event.relatedTarget) return;
    const lost = event.target as Element;
    window.clearTimeout(timer);
    // UV sets `disabled` after its click handler ran; look once the event has settled.
    timer = window.setTimeout(() => {
      const active = document.activeElement;
      if (active && active !== document.body) return;
      if (!root.isConnected || usable(lost)) return;
      focusFallback(root, lost).focus();
    }, 0);
  };
  root.addEventListener("focusout", onFocusOut);
  return () => {
    window.clearTimeout(timer);
    root.removeEventListener("focusout", onFocusOut);
  };
}
