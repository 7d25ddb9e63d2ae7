import type { ReactNode } from "react";
import { Links, Meta, Outlet, Scripts, useMatches, useRouteError, useRouteLoaderData, type ShouldRevalidateFunction } from "react-router";
import { useEffect } from "react";
import type { Route } from "./+types/root";
import fontLatin400 from "@fontsource/atkinson-hyperlegible/files/atkinson-hyperlegible-latin-400-normal.woff2?url";
import fontLatin700 from "@fontsource/atkinson-hyperlegible/files/atkinson-hyperlegible-latin-700-normal.woff2?url";
import appCss from "./styles/app.css?url";
import { ErrorPage, ErrorPageGuard } from "./components/ErrorPage";
import { SiteShell } from "./layouts/SiteShell";
import { handleChunkError, watchChunkErrors } from "./features/navigation/chunk-reload";
import { layoutNameFor, layouts, pageHydrates } from "./layouts/layouts";
import { getAuth } from "./features/auth/context";
import { authMiddleware } from "./features/auth/root-middleware.server";
import { publicAuthState } from "./features/auth/user";
import { isPreviewRequest } from "./features/content/content.server";
import { signupLists } from "./features/newsletter/api.server";
import { routeMeta, seoMeta } from "./lib/seo";
import { publicOrigin } from "./lib/site.server";
import { useNonce } from "./lib/nonce";
import { pageShowsViewer, UV_SCRIPT } from "./features/images/viewer-head";
import { ScriptPreloads } from "./features/navigation/ScriptPreloads";

const FAVICON =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#14365d"/><text x="16" y="23" font-size="20" text-anchor="middle" fill="#fff" font-family="Georgia,serif">L</text></svg>',
  );

// Both faces every page shows at once are preloaded (body text 400; the header's name and
// navigation, headings 700): with font-display: swap (fontsource's CSS), a face that came
// after the first paint would re-flow the header in the site's font, narrower than the
// fallback, and move <main> (a layout shift of 0.69 on desktop when only 400 was preloaded).
export const links: Route.LinksFunction = () => [
  { rel: "preload", href: fontLatin400, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "preload", href: fontLatin700, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  // One stylesheet for the whole site (app.css imports fonts.css); a feature's own styles
  // come with its route (the dropdown's multiselect.css with MultiSelect).
  { rel: "stylesheet", href: appCss },
  { rel: "icon", href: FAVICON, type: "image/svg+xml" },
  { rel: "alternate", type: "application/rss+xml", title: "News (RSS)", href: "/feeds/news.xml" },
  { rel: "alternate", type: "application/atom+xml", title: "News (Atom)", href: "/feeds/news.atom" },
];

// Auth state for every request (seed-spec §2, §4): read before any loader runs, and
// page access levels (route `handle.auth`) enforced on the server. features/auth/access.ts.
export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = getAuth(context);
  return {
    origin: publicOrigin(request),
    preview: isPreviewRequest(request),
    auth: publicAuthState(auth.state),
    // The CSRF token server-rendered forms carry (components/CsrfField.tsx).
    csrf: auth.formToken(),
    // The lists the footer's newsletter sign-up offers (features/newsletter; kept 30 s).
    newsletterLists: await signupLists(context),
  };
}

// The header shows who is signed in: read it again on every page change, not only
// after forms (the data request runs the middleware anyway).
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  defaultShouldRevalidate || currentUrl.pathname !== nextUrl.pathname;

// React Aria's usePress (the research filters' dropdowns, features/research/MultiSelectDropdown.tsx)
// puts this rule into the head the first time a pressable element mounts, unless an element
// with this id is already there. A stylesheet added to a laid-out page makes Chromium
// restyle and rebuild the layout of the whole document: about 0.7 s of one task on the
// research results page at Lighthouse's 4× slower CPU, most of its blocking time. Served
// with the page, it costs nothing later. Kept to React Aria's text (react-aria 3.53,
// dist/private/interactions/usePress.mjs); e2e/front-end.test.mjs checks that no
// stylesheet is added after hydration.
const PRESSABLE_STYLE_ID = "react-aria-pressable-style";
const PRESSABLE_STYLE = "@layer { [data-react-aria-pressable] { touch-action: pan-x pan-y pinch-zoom; } }";

export const meta: Route.MetaFunction = ({ error }) => (error ? routeMeta({ error }) : seoMeta(null));

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const matches = useMatches();
  const viewer = pageShowsViewer(matches);
  const scripts = pageHydrates(matches);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#14365d" />
        <style id={PRESSABLE_STYLE_ID}>{PRESSABLE_STYLE}</style>
        {scripts ? <ScriptPreloads nonce={nonce} /> : null}
        <Meta />
        <Links />
        {/* The Universal Viewer (served by Go from the universalviewer package), declared
            only on pages that show a scan viewer (features/images/viewer-head.ts). */}
        {viewer ? <script src={UV_SCRIPT} defer nonce={nonce} /> : null}
      </head>
      <body>
        {children}
        {scripts ? <Scripts nonce={nonce} /> : null}
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const matches = useMatches();
  const PageLayout = layouts[layoutNameFor(matches)];
  useEffect(() => watchChunkErrors(), []);
  return (
    <SiteShell preview={loaderData.preview}>
      <PageLayout>
        <Outlet />
      </PageLayout>
    </SiteShell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const rootData = useRouteLoaderData<typeof loader>("root");
  useEffect(() => {
    handleChunkError(error);
  }, [error]);
  return (
    <ErrorPageGuard>
      <SiteShell preview={rootData?.preview ?? false}>
        <ErrorPageGuard>
          <ErrorPage error={error} />
        </ErrorPageGuard>
      </SiteShell>
    </ErrorPageGuard>
  );
}

