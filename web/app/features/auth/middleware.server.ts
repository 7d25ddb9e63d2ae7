// The root middleware (seed-spec §2, §4): reads the visitor's auth state into the
// router context, enforces the page's access level before any loader or action
// runs, and relays the Go API's cookies on the way out.
import { redirect, type MiddlewareFunction } from "react-router";
import { accessRedirect } from "./access";
import { authContext } from "./context";
import type { RouteAccess } from "./route-access.server";
import { createAuthSession, type CreateSessionOptions } from "./session.server";

export interface AuthMiddlewareOptions extends CreateSessionOptions {
  /** The access level of a path (the server's route table by default). */
  routeAccess: (pathname: string) => Promise<RouteAccess>;
}

export function createAuthMiddleware(options: AuthMiddlewareOptions): MiddlewareFunction<Response> {
  return async ({ request, context, url }, next) => {
    const auth = createAuthSession(request, options);
    context.set(authContext, auth);
    const access = await options.routeAccess(url.pathname);
    // Resource routes that anyone may fetch (feeds, sitemap, robots) need no state.
    if (!(access.resource && access.level === "public")) await auth.resolve();
    const target = accessRedirect(access.level, auth.state.loggedIn, url.pathname + url.search);
    const response = target ? redirect(target) : await next();
    return auth.finish(response, { page: !access.resource });
  };
}
