// The API's 422 field errors are keyed by dotted paths ("data.body.2.primary.image.alt").
// Each message goes next to the field that path names, or, when the editor draws no
// field that deep, next to the nearest one it does.
import type { FieldErrors } from "../../lib/form-result";

/** The messages for exactly `path`. */
export function errorsAt(errors: FieldErrors | undefined, path: string): string[] {
  return errors?.[path] ?? [];
}

/** The messages for `path` and every path under it. */
export function errorsUnder(errors: FieldErrors | undefined, path: string): string[] {
  if (!errors) return [];
  const out: string[] = [];
  for (const [key, messages] of Object.entries(errors)) if (key === path || key.startsWith(path + ".")) out.push(...messages);
  return out;
}

/**
 * The messages for `path` and the paths under it that none of `drawn` (paths of fields
 * drawn inside this one) claims.
 */
export function errorsUnclaimed(errors: FieldErrors | undefined, path: string, drawn: readonly string[]): string[] {
  if (!errors) return [];
  const out: string[] = [];
  for (const [key, messages] of Object.entries(errors)) {
    if (key !== path && !key.startsWith(path + ".")) continue;
    if (drawn.some((d) => key === d || key.startsWith(d + "."))) continue;
    out.push(...messages);
  }
  return out;
}

/** The element id of the control drawn for a path. */
export function controlId(path: string): string {
  return `doc-${path.replace(/[^A-Za-z0-9_-]/g, "-")}`;
}

/** The id to link an error to: the longest prefix of its path that `exists`. */
export function nearestControl(path: string, exists: (id: string) => boolean): string | null {
  const parts = path.split(".");
  for (let n = parts.length; n > 0; n--) {
    const id = controlId(parts.slice(0, n).join("."));
    if (exists(id)) return id;
  }
  return null;
}
