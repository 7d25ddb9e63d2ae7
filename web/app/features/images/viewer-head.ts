// Which pages declare the Universal Viewer's script in their head (seed-spec §1): those
// that show a viewer. A small module of its own, so that the root layout, which asks on
// every page, does not bring the viewer's configuration (uv.ts) into every page's code.
import type { UIMatch } from "react-router";

/** The script the root layout declares on viewer pages; the viewer waits for it. */
export const UV_SCRIPT = "/uv/umd/UV.js";

/**
 * A route whose page may show the viewer says when, from its loader data; the root
 * layout then puts UV.js in that page's head (seed-spec §1's head declaration).
 */
export interface ViewerHandle<Data = any> {
  showsViewer?: (loaderData: Data) => boolean;
}

/** Whether the matched page shows the viewer (any match's handle says so). */
export function pageShowsViewer(matches: readonly UIMatch[]): boolean {
  return matches.some((m) => {
    const shows = (m.handle as ViewerHandle | undefined)?.showsViewer;
    return Boolean(shows && m.loaderData !== undefined && shows(m.loaderData));
  });
}
