import type { AuthHandle } from "../features/auth/access";

// The Go supervisor's health probe (internal/server/ssr.go): it asks this every few
// seconds and restarts the child when no answer comes. Answering proves the event loop
// and React Router's request handler work; it calls no API, so an outage of the content
// API or the Go API does not get a healthy child restarted.
export const handle: AuthHandle = { auth: false };

export function loader() {
  return new Response("ok\n", {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
