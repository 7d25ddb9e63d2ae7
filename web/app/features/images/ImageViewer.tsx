// <ImageViewer manifest=… />: scans in the Universal Viewer, mounted in the browser after
// hydration (UV looks its element up in the live DOM and cannot run on the server).
// The server renders the first page as a plain image with a link to the full image:
// that is what browsers without JavaScript keep, and what the page falls back to when
// the viewer cannot start. docs/web.md, "Image viewer".
import { useEffect, useRef, useState } from "react";
import type { PagePreview } from "./manifest";
import { loadUV, UV_EVENTS, UV_STYLESHEET, type UVViewer } from "./uv";
import { keepFocusInViewer, repairOpenSeadragonImages, viewerConfig } from "./uv-access";
import styles from "./ImageViewer.module.css";

export interface ImageViewerProps {
  /** The URL of the item's IIIF Presentation 3.0 manifest (same origin: the CSP allows no other). */
  manifest: string;
  /** What the scans are ("Parish register, 1851"): names the viewer's region. */
  title: string;
  /** The first page's image for browsers without JavaScript (`firstPagePreview`). */
  preview?: PagePreview | null;
  /** The pages' labels (`pageLabels`), for the "page 2 of 5" line under the viewer. */
  pages?: string[];
  /** The page to open first (0-based). */
  canvasIndex?: number;
  /** An extra class for the page's layout (the viewer adds no headings of its own). */
  className?: string;
}

type Phase = "server" | "starting" | "ready" | "failed";

export function ImageViewer({ manifest, title, preview = null, pages = [], canvasIndex = 0, className }: ImageViewerProps) {
  const target = useRef<HTMLDivElement>(null);
  // "server" on the server and in the first browser render (so hydration matches);
  // the effect below moves on once React runs in the browser.
  const [phase, setPhase] = useState<Phase>("server");
  const [index, setIndex] = useState(canvasIndex);

  useEffect(() => {
    const el = target.current;
    if (!el) return;
    let viewer: UVViewer | null = null;
    let cancelled = false;
    const releaseFocus = keepFocusInViewer(el);
    setPhase("starting");
    setIndex(canvasIndex);
    loadUV()
      .then((UV) => {
        if (cancelled) return;
        repairOpenSeadragonImages();
        viewer = UV.init(el, { iiifManifestId: manifest, canvasIndex, embedded: true });
        const width = el.clientWidth || el.parentElement?.clientWidth || 0;
        viewer.on(UV_EVENTS.configure, ({ cb }: { cb: (config: unknown) => void }) => cb(viewerConfig(width)));
        viewer.on(UV_EVENTS.created, () => !cancelled && setPhase("ready"));
        viewer.on(UV_EVENTS.canvasIndexChange, (i: unknown) => {
          if (!cancelled && typeof i === "number") setIndex(i);
        });
        viewer.on(UV_EVENTS.loadFailed, () => !cancelled && setPhase("failed"));
      })
      .catch((error: unknown) => {
        console.error(`[images] the viewer could not start: ${error instanceof Error ? error.message : String(error)}`);
        if (!cancelled) setPhase("failed");
      });
    return () => {
      cancelled = true;
      releaseFocus();
      try {
        viewer?.dispose();
      } catch {
        // UV's dispose of a half-started viewer may throw; the element goes anyway.
      }
      el.replaceChildren();
    };
  }, [manifest, canvasIndex]);

  const showViewer = phase === "starting" || phase === "ready";
  const total = pages.length;
  const pageLabel = pages[index] ?? `Page ${index + 1}`;

  return (
    <section className={[styles.viewer, className].filter(Boolean).join(" ")} aria-label={`Image viewer: ${title}`}>
      {/* React 19 hoists this into <head> once, however many viewers a page has. */}
      <link rel="stylesheet" href={UV_STYLESHEET} precedence="default" />
      <div
        ref={target}
        className={`uv ${styles.stage}`}
        hidden={!showViewer}
        data-phase={phase}
        data-canvas-index={index}
      />
      {showViewer ? (
        <p className={styles.status} role="status" aria-live="polite">
          {phase === "starting"
            ? "Opening the viewer…"
            : total > 1
              ? `Showing ${pageLabel}: page ${index + 1} of ${total}.`
              : `Showing ${pageLabel}.`}
        </p>
      ) : preview ? (
        <figure className={styles.fallback}>
          <a href={preview.href}>
            <img
              src={preview.src}
              alt={preview.alt}
              width={preview.width ?? undefined}
              height={preview.height ?? undefined}
              loading="lazy"
              decoding="async"
            />
          </a>
          <figcaption>
            {phase === "failed" ? "The viewer could not be started, so the first page is shown. " : null}
            {total > 1 ? `The first of ${total} pages. ` : null}
            <a href={preview.href}>Open the full image{total > 1 ? " of the first page" : ""}</a>
            {phase === "server" ? <span className={styles.note}> Zooming and turning pages need JavaScript.</span> : null}
          </figcaption>
        </figure>
      ) : (
        <p className={styles.status}>
          {phase === "failed" ? "The viewer could not be started." : "The viewer needs JavaScript."}{" "}
          <a href={manifest}>The item's IIIF manifest</a> opens in other IIIF viewers.
        </p>
      )}
    </section>
  );
}
