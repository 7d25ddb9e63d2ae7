// Content previews (seed-spec §2, protocols §1.9): /preview?token=&documentId=
// stores the preview ref in the io.prismic.preview cookie and sends the editor
// to the previewed document's page.
import * as prismic from "@prismicio/client";
import { createContentClient } from "./content.server";
import { linkResolver } from "./link-resolver";
import { publicOrigin } from "../../lib/site.server";

export const PREVIEW_COOKIE_MAX_AGE_S = 30 * 60;

/** A same-site path that is safe to redirect to ("/x", never "//host" or "/\\host"). */
export function isLocalPath(value: string | null | undefined): value is string {
  return typeof value === "string" && /^\/(?![/\\])/.test(value) && !/[\u0000-\u001F]/.test(value);
}

/**
 * The cookie value: the token verbatim (the client uses it as the ref as is),
 * with only the characters a cookie value cannot hold escaped. `;` becomes
 * %3B, which @prismicio/client turns back.
 */
export function previewCookieValue(token: string): string {
  return token.replace(/;/g, "%3B").replace(/[\s",\\]/g, encodeURIComponent);
}

export function previewCookie(request: Request, token: string | null): string {
  const secure = publicOrigin(request).startsWith("https:") ? "; Secure" : "";
  if (token === null) return `${prismic.cookie.preview}=; Path=/; Max-Age=0; SameSite=Lax; HttpOnly${secure}`;
  return `${prismic.cookie.preview}=${previewCookieValue(token)}; Path=/; Max-Age=${PREVIEW_COOKIE_MAX_AGE_S}; SameSite=Lax; HttpOnly${secure}`;
}

/** Where to send the editor: the document's path, else "/". */
export async function resolvePreviewPath(token: string, documentId: string | null): Promise<string> {
  if (!documentId) return "/";
  try {
    const client = createContentClient();
    const path = await client.resolvePreviewURL({
      linkResolver,
      defaultURL: "/",
      previewToken: token,
      documentID: documentId,
    });
    return isLocalPath(path) ? path : "/";
  } catch (error) {
    console.error(`[content] preview of ${documentId} could not be resolved: ${error instanceof Error ? error.message : error}`);
    return "/";
  }
}
