import type { ReactNode } from "react";
import type { UIMatch } from "react-router";

// Pages choose a layout with `export const handle = { layout: "wide" }`;
// the deepest route that names one wins, else "default".
//
// A page that needs no script at all says `hydrate: false`: it is served as plain HTML,
// with no React Router or React code (its links are ordinary links, its forms plain
// posts, the header's menu a link CSS opens). docs/decisions/023-light-front-end.md.

export type LayoutName = "default" | "wide";

export interface RouteHandle {
  layout?: LayoutName;
  hydrate?: false;
}

/** A readable column: the default for articles and lists. */
function DefaultLayout({ children }: { children: ReactNode }) {
  return <div className="container layout layout--default">{children}</div>;
}

/** Full-width bands (home page heroes); each band sets its own container. */
function WideLayout({ children }: { children: ReactNode }) {
  return <div className="layout layout--wide">{children}</div>;
}

export const layouts: Record<LayoutName, (props: { children: ReactNode }) => ReactNode> = {
  default: DefaultLayout,
  wide: WideLayout,
};

export function layoutNameFor(matches: UIMatch[]): LayoutName {
  for (let i = matches.length - 1; i >= 0; i--) {
    const layout = (matches[i]?.handle as RouteHandle | undefined)?.layout;
    if (layout && layout in layouts) return layout;
  }
  return "default";
}

/** Whether the page's scripts are sent: not when a matched route says `hydrate: false`. */
export function pageHydrates(matches: UIMatch[]): boolean {
  return !matches.some((m) => (m.handle as RouteHandle | undefined)?.hydrate === false);
}
