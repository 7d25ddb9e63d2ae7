import { createContext, useContext } from "react";

/**
 * The Go front door gives every render a random nonce in the X-Lineage-Nonce header.
 * entry.server.tsx provides it here so the root layout puts it on the scripts React
 * Router and React write. It only marks them as the page's own: the front door hashes
 * the inline scripts that carry it into the page's Content-Security-Policy and removes
 * the attribute, so a page is the same bytes for every visitor and can be cached
 * (docs/decisions/015-page-cache-and-csp.md). In the browser it is undefined.
 */
export const NONCE_HEADER = "x-lineage-nonce";

export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}

/** Reads the nonce from a request; only word characters and -_ are accepted. */
export function nonceFromRequest(request: Request): string | undefined {
  const value = request.headers.get(NONCE_HEADER);
  return value && /^[A-Za-z0-9_-]{8,128}$/.test(value) ? value : undefined;
}
