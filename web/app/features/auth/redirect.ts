// Where a visitor may be sent back to after signing in (seed-spec §5): a local path of
// ASCII letters, digits and @ - % _ ~ . : / with an optional query and fragment.
//
// This mirrors auth.ValidRedirect in internal/auth/redirect.go rule for rule, so the
// web app and the Go API (which validates the OpenID Connect `redirect`) accept the
// same targets. Stricter than the spec's pattern where the pattern alone would let a
// browser leave the site: the path starts with exactly one "/", has no empty, "." or
// ".." segment, and no percent-escape decodes to "/", "\", "%", ".", a control
// character or invalid UTF-8; the query and fragment hold only printable URL
// characters. 2048 bytes at most.

export const MAX_REDIRECT_LENGTH = 2048;

const utf8 = new TextDecoder("utf-8", { fatal: true });

function isAlnum(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
}

function unhex(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** The byte of the escape at s[i] ("%XY"), or -1 when it is not a valid escape. */
function unhex2(s: string, i: number): number {
  if (i + 2 >= s.length) return -1;
  const h = unhex(s.charCodeAt(i + 1));
  const l = unhex(s.charCodeAt(i + 2));
  return h < 0 || l < 0 ? -1 : (h << 4) | l;
}

const PATH_PUNCTUATION = "@-_~.:";
/** Characters a path escape may stand for besides letters, digits and non-ASCII bytes. */
const ALLOWED_ESCAPED = "@-_~: '(),+&=";
const EXTRA_PUNCTUATION = "-._~!$&'()*+,;=:@/?";

function allowedEscape(b: number): boolean {
  return b >= 0x80 || isAlnum(b) || ALLOWED_ESCAPED.includes(String.fromCharCode(b));
}

function validPath(path: string): boolean {
  if (path === "/") return true;
  const segments = path.slice(1).split("/");
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    if (seg === "") {
      if (i === segments.length - 1) continue; // a trailing slash
      return false;
    }
    if (seg === "." || seg === "..") return false;
    const decoded: number[] = [];
    for (let j = 0; j < seg.length; j++) {
      const c = seg.charCodeAt(j);
      if (isAlnum(c) || PATH_PUNCTUATION.includes(seg[j]!)) {
        decoded.push(c);
      } else if (c === 0x25 /* % */) {
        const b = unhex2(seg, j);
        if (b < 0 || !allowedEscape(b)) return false;
        decoded.push(b);
        j += 2;
      } else {
        return false;
      }
    }
    try {
      utf8.decode(new Uint8Array(decoded));
    } catch {
      return false;
    }
  }
  return true;
}

/** A query or fragment, without its leading "?" or "#". */
function validExtra(s: string): boolean {
  for (let j = 0; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (isAlnum(c) || EXTRA_PUNCTUATION.includes(s[j]!)) continue;
    if (c === 0x25) {
      const b = unhex2(s, j);
      if (b < 0x20 || b === 0x7f || b === 0x25) return false;
      j += 2;
      continue;
    }
    return false;
  }
  return true;
}

/** Whether `target` may be used as the place to return to after signing in. */
export function validRedirect(target: unknown): target is string {
  if (typeof target !== "string" || target === "" || target.length > MAX_REDIRECT_LENGTH || target[0] !== "/") {
    return false;
  }
  let path = target;
  let rest = "";
  const cut = target.search(/[?#]/);
  if (cut >= 0) {
    path = target.slice(0, cut);
    rest = target.slice(cut);
  }
  if (!validPath(path)) return false;
  if (rest === "") return true;
  let query = rest;
  let fragment = "";
  if (rest[0] === "#") {
    query = "";
    fragment = rest.slice(1);
  } else {
    const hash = rest.indexOf("#");
    if (hash >= 0) {
      query = rest.slice(0, hash);
      fragment = rest.slice(hash + 1);
    }
  }
  if (query !== "" && !validExtra(query.slice(1))) return false;
  return validExtra(fragment);
}

/** `target` when validRedirect accepts it, else `fallback` (home by default). */
export function safeRedirect(target: unknown, fallback = "/"): string {
  return validRedirect(target) ? target : fallback;
}
