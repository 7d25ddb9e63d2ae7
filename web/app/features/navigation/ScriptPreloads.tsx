// The page's scripts, asked for at low priority ahead of React Router's own preloads of
// them. A page is whole without its scripts (rendered on the server, every form a plain
// post), so on a slow connection its stylesheets, fonts and images should come first and
// the scripts after. React Router's <Scripts> writes a `modulepreload` link for each
// script, which Chromium fetches at High priority, beside the stylesheets. These links,
// rendered in the head, come earlier in the document (React hoists both in render
// order), so the browser starts each fetch here, at low priority, and React Router's
// link for the same URL reuses it. docs/decisions/023-light-front-end.md.
import { useContext, useEffect } from "react";
import { UNSAFE_FrameworkContext, useMatches, type UNSAFE_AssetsManifest } from "react-router";

type RouteManifest = UNSAFE_AssetsManifest["routes"][string];

/** The scripts React Router preloads for a page: the client entry's, then each matched route's. */
export function pageScripts(manifest: UNSAFE_AssetsManifest, routeIds: readonly string[]): string[] {
  const hrefs = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
  const add = (route: RouteManifest | undefined) => {
    if (!route) return;
    for (const href of [route.module, route.clientActionModule, route.clientLoaderModule, route.hydrateFallbackModule, ...(route.imports ?? [])]) {
      if (href) hrefs.add(href);
    }
  };
  for (const id of routeIds) add(manifest.routes[id]);
  return [...hrefs];
}

// As React Router's <Scripts>: the links serve the first load only; once the page has
// hydrated, a client navigation loads its route's modules itself.
let hydrated = false;

export function ScriptPreloads({ nonce }: { nonce?: string }) {
  const framework = useContext(UNSAFE_FrameworkContext);
  const matches = useMatches();
  useEffect(() => {
    hydrated = true;
  }, []);
  if (hydrated || !framework) return null;
  return pageScripts(framework.manifest, matches.map((m) => m.id)).map((href) => (
    <link key={href} rel="modulepreload" href={href} fetchPriority="low" nonce={nonce} suppressHydrationWarning />
  ));
}
