// Paths deeper than the catch-all's six segments: never a page.
import { RouteErrorBoundary } from "../components/RouteErrorBoundary";
import { routeMeta } from "../lib/seo";

export const meta = routeMeta;

export function loader(): never {
  throw new Response("This page could not be found", { status: 404, statusText: "Not Found" });
}

export default function NotFound() {
  return null;
}

export { RouteErrorBoundary as ErrorBoundary };
