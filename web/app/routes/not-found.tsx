// Paths deeper than the catch-all's six segments: never a page.
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { routeMeta } from "../lib/seo";
import type { AuthHandle } from "../features/auth/access";

export const meta = routeMeta;

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

export function loader(): never {
  throw new Response("This page could not be found", { status: 404, statusText: "Not Found" });
}

export default function NotFound() {
  return null;
}

export { RouteErrorBoundary as ErrorBoundary };
