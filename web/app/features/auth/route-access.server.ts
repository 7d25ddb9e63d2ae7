// Which routes a URL matches, with their handles, on the server. Middleware receives
// no matches, so the root middleware matches the URL itself against the same route
// table the server uses (the server build), to read each route's `handle.auth`.
import { matchRoutes, type RouteObject } from "react-router";
import { accessLevelOf, type AccessLevel } from "./access";
import { LruCache } from "../../lib/lru";

/** The part of a server build's route table this module reads. */
export interface BuildRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  module: { handle?: unknown; default?: unknown };
}

export interface RouteAccess {
  level: AccessLevel;
  /** True when the deepest match is a resource route (no component: feeds, sitemap…). */
  resource: boolean;
}

type Tree = RouteObject & { handle?: unknown; resource?: boolean };

export function buildRouteTree(routes: Record<string, BuildRoute | undefined>): RouteObject[] {
  const byParent = new Map<string | undefined, BuildRoute[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const list = byParent.get(route.parentId) ?? [];
    list.push(route);
    byParent.set(route.parentId, list);
  }
  const build = (parentId: string | undefined): RouteObject[] =>
    (byParent.get(parentId) ?? []).map((route) => {
      const common = {
        id: route.id,
        path: route.path,
        caseSensitive: route.caseSensitive,
        handle: route.module.handle,
        resource: !route.module.default,
      };
      if (route.index) return { ...common, index: true } as Tree;
      return { ...common, children: build(route.id) } as Tree;
    });
  return build(undefined);
}

/** The access level of a path in a route tree; an unmatched path counts as public (404). */
export function routeAccess(tree: RouteObject[], pathname: string): RouteAccess {
  const matches = matchRoutes(tree, pathname);
  if (!matches?.length) return { level: "public", resource: false };
  const routes = matches.map((m) => m.route as Tree);
  return { level: accessLevelOf(routes.map((r) => r.handle)), resource: Boolean(routes[routes.length - 1]?.resource) };
}

/** How many paths' access levels a server keeps; unknown paths (guesses, 404s) age out. */
export const ROUTE_ACCESS_MEMO_SIZE = 1000;

/**
 * routeAccess over one tree, remembered per path: matchRoutes flattens and ranks the
 * whole table on every call, and a path's access changes only with a new build.
 */
export function memoRouteAccess(tree: RouteObject[], max = ROUTE_ACCESS_MEMO_SIZE): (pathname: string) => RouteAccess {
  const known = new LruCache<RouteAccess>(max);
  return (pathname) => {
    let access = known.get(pathname);
    if (!access) {
      access = Object.freeze(routeAccess(tree, pathname));
      known.set(pathname, access);
    }
    return access;
  };
}

let access: Promise<(pathname: string) => RouteAccess> | null = null;

/** The access level of a path in this server's route table. */
export async function serverRouteAccess(pathname: string): Promise<RouteAccess> {
  access ??= import("virtual:react-router/server-build").then((build) =>
    memoRouteAccess(buildRouteTree(build.routes as unknown as Record<string, BuildRoute>)),
  );
  return (await access)(pathname);
}
