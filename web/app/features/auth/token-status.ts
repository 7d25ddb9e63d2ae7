import { TOKEN_EXPIRY_MARGIN_MS } from "./constants";

/** seed-spec §4: unknown (no expiry known), valid, or expired (with a 500 ms margin). */
export type TokenStatus = "unknown" | "valid" | "expired";

/**
 * The status of a token that expires at `expiresAt` (ms since the epoch). A token
 * counts as expired TOKEN_EXPIRY_MARGIN_MS before its expiry, so a request sent just
 * before it does not arrive just after.
 */
export function tokenStatus(expiresAt: number | null | undefined, now = Date.now()): TokenStatus {
  if (!expiresAt || !Number.isFinite(expiresAt) || expiresAt <= 0) return "unknown";
  return now < expiresAt - TOKEN_EXPIRY_MARGIN_MS ? "valid" : "expired";
}
