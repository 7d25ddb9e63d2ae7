/**
 * Whether a request is React Router's data request (a fetcher or a client-side
 * navigation with JavaScript) rather than a plain form post or page load. Actions
 * answer data requests with data and plain posts with a redirect back.
 */
export function isDataRequest(request: Request): boolean {
  return new URL(request.url).pathname.endsWith(".data");
}
