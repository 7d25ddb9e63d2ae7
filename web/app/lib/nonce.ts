import { createContext, useContext } from "react";

/**
 * The Go front door writes a Content-Security-Policy that admits inline scripts only
 * with a per-request nonce, and passes that nonce to the SSR server in the
 * X-Lineage-Nonce header. entry.server.tsx provides it here so the root layout can put
 * it on the scripts React Router writes. In the browser it is undefined: the nonce is
 * only needed for the server-rendered HTML.
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
