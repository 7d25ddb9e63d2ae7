// A posted form as tests of form readers build it: fields in order, a name repeated
// for a list (as checkboxes send it), files as the browser sends them.

/** The FormData of `fields`: [name, value] pairs appended in order, or an object's fields. */
export function formData(fields: readonly (readonly [string, string | File])[] | Record<string, string | File>): FormData {
  const f = new FormData();
  for (const [name, value] of Array.isArray(fields) ? fields : Object.entries(fields)) f.append(name, value);
  return f;
}
