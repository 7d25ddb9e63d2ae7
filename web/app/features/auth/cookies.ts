// The few cookie operations the auth layer needs: read a Cookie header, follow
// Set-Cookie answers, and write the web app's own cookies.

/** Name → value of a Cookie request header (the first of duplicate names wins). */
export function parseCookieHeader(header: string | null | undefined): Map<string, string> {
  const jar = new Map<string, string>();
  if (!header) return jar;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (name && !jar.has(name)) jar.set(name, value);
  }
  return jar;
}

/** A Cookie header for these name/value pairs. */
export function formatCookieHeader(jar: Map<string, string>): string {
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

export interface SetCookie {
  name: string;
  value: string;
  /** True when the cookie is being removed (Max-Age ≤ 0 or an Expires in the past). */
  removed: boolean;
}

/** Reads the name, value and removal of one Set-Cookie header value. */
export function parseSetCookie(header: string, now = Date.now()): SetCookie | null {
  const [pair = "", ...attributes] = header.split(";");
  const eq = pair.indexOf("=");
  if (eq <= 0) return null;
  const name = pair.slice(0, eq).trim();
  const value = pair.slice(eq + 1).trim();
  let removed = false;
  let maxAgeSeen = false;
  for (const attribute of attributes) {
    const [key = "", ...rest] = attribute.split("=");
    const k = key.trim().toLowerCase();
    const v = rest.join("=").trim();
    if (k === "max-age") {
      maxAgeSeen = true;
      removed = Number(v) <= 0;
    } else if (k === "expires" && !maxAgeSeen) {
      const at = Date.parse(v);
      if (!Number.isNaN(at) && at <= now) removed = true;
    }
  }
  return { name, value, removed };
}

export interface CookieOptions {
  /** Lifetime in days (seed-spec §9: cookie expiry is computed in days); 0 removes the cookie. */
  expiresDays?: number;
  /** An explicit expiry time instead of expiresDays. */
  expires?: Date;
  httpOnly?: boolean;
  secure?: boolean;
  path?: string;
}

/** A Set-Cookie header value. Values are written percent-encoded. */
export function serializeCookie(name: string, value: string, options: CookieOptions = {}, now = Date.now()): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path ?? "/"}`];
  let expires = options.expires;
  if (!expires && options.expiresDays !== undefined) expires = new Date(now + options.expiresDays * 864e5);
  if (expires) {
    parts.push(`Expires=${expires.toUTCString()}`);
    if (expires.getTime() <= now) parts.push("Max-Age=0");
  }
  if (options.httpOnly !== false) parts.push("HttpOnly");
  parts.push("SameSite=Lax");
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

/** A Set-Cookie header value that removes the cookie. */
export function expiredCookie(name: string, options: Omit<CookieOptions, "expires" | "expiresDays"> = {}): string {
  return serializeCookie(name, "", { ...options, expires: new Date(0) });
}

/** Decodes a cookie value written by serializeCookie (tolerates raw values). */
export function decodeCookieValue(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
