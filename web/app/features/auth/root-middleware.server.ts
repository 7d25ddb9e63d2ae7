// The auth middleware the root route runs for every request.
import { createAuthMiddleware } from "./middleware.server";
import { serverRouteAccess } from "./route-access.server";

export const authMiddleware = createAuthMiddleware({ routeAccess: serverRouteAccess });
