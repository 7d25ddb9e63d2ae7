// The sign-up form's rules: which lists a visitor may tick, the consent wording shown
// beside the button (and sent with the sign-up, which the API keeps as the consent),
// and reading a posted form into the API's request.
import type { NewsletterList } from "./types";

/** Shown above the sign-up button and stored with the consent, word for word. */
export const CONSENT_WORDING =
  "I would like to receive the newsletters I have ticked by email. I can unsubscribe at any time with the link at the foot of every email.";

/** Shown next to the button in the account area, where no confirmation email is needed. */
export const ACCOUNT_CONSENT_WORDING =
  "Send the newsletters I have ticked to my account's email address. I can change this here, or unsubscribe with the link in any email, at any time.";

/** The scopes of a user as the API gives them (an array, or a map of truthy values). */
type Scopes = string[] | Record<string, unknown> | null | undefined;

function holds(scopes: Scopes, scope: string): boolean {
  if (!scopes) return false;
  return Array.isArray(scopes) ? scopes.includes(scope) : Boolean(scopes[scope]);
}

/**
 * The lists this visitor may sign up to: every public list, and a members' list only
 * for someone signed in with its scope (the API refuses it to anyone else).
 */
export function listsOffered(lists: readonly NewsletterList[], scopes: Scopes): NewsletterList[] {
  return lists.filter((list) => list.audience === "public" || (list.scope !== "" && holds(scopes, list.scope)));
}

/** The page a sign-up came from: a path of this site, else none. */
export function sourcePath(value: string): string {
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return "";
  return value.slice(0, 500);
}

export interface SignupRequest {
  email: string;
  lists: string[];
  source: string;
  wording: string;
}

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** The API's sign-up request from a posted form; unknown wording falls back to the form's own. */
export function signupRequest(form: FormData): SignupRequest {
  const lists = [...new Set(form.getAll("lists").filter((v): v is string => typeof v === "string" && v !== ""))];
  const posted = field(form, "wording");
  return {
    email: field(form, "email").trim(),
    lists,
    source: sourcePath(field(form, "source")),
    // The wording the visitor was shown: ours, as the form carried it.
    wording: posted === CONSENT_WORDING || posted === ACCOUNT_CONSENT_WORDING ? posted : CONSENT_WORDING,
  };
}

/** The ticked lists of a preferences form (any order, no repeats). */
export function tickedLists(form: FormData): string[] {
  return [...new Set(form.getAll("lists").filter((v): v is string => typeof v === "string" && v !== ""))];
}

/** "Society news and Events digest": list names in prose. */
export function listNames(lists: readonly Pick<NewsletterList, "name">[]): string {
  const names = lists.map((l) => l.name);
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** Whether the footer offers the sign-up on a page: not on the newsletter's own pages, which have their forms. */
export function footerOffersSignup(pathname: string): boolean {
  return !(pathname === "/newsletter" || pathname.startsWith("/newsletter/") || pathname === "/user-account/newsletter");
}
