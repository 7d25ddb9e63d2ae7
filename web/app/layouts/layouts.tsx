import type { ReactNode } from "react";
import type { UIMatch } from "react-router";

// Pages choose a layout with `export const handle = { layout: "wide" }`;
// the deepest route that names one wins, else "default".

export type LayoutName = "default" | "wide";

export interface RouteHandle {
  layout?: LayoutName;
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
