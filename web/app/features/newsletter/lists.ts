// The admins' list form: reading it into the API's request.

export interface ListRequest {
  slug: string;
  name: string;
  description: string;
  audience: "public" | "members";
  /** The scope a members' list needs (the API's default: "member"); none for public lists. */
  scope: string;
}

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
};

export function listRequest(form: FormData): ListRequest {
  const audience = field(form, "audience") === "members" ? "members" : "public";
  return {
    slug: field(form, "slug").toLowerCase(),
    name: field(form, "name"),
    description: field(form, "description"),
    audience,
    scope: audience === "members" ? field(form, "scope") : "",
  };
}

/** Who may subscribe to a list, in words. */
export function audienceText(list: { audience: string; scope: string }): string {
  return list.audience === "members" ? `Members (scope “${list.scope || "member"}”)` : "Anyone";
}
