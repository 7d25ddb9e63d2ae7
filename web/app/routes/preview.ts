// /preview?token=&documentId= — start a content preview and go to the page.
// /preview?exit=1 — end it. Without a token: back to the home page.
import { redirect } from "react-router";
import type { Route } from "./+types/preview";
import { previewCookie, resolvePreviewPath } from "../features/content/preview.server";
import type { AuthHandle } from "../features/auth/access";

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

export async function loader({ request, url }: Route.LoaderArgs) {
  const params = url.searchParams;
  const noStore = { "Cache-Control": "no-store" };
  if (params.has("exit")) {
    return redirect("/", { headers: { ...noStore, "Set-Cookie": previewCookie(request, null) } });
  }
  const token = params.get("token");
  if (!token) return redirect("/", { headers: noStore });
  const path = await resolvePreviewPath(token, params.get("documentId"));
  return redirect(path, { headers: { ...noStore, "Set-Cookie": previewCookie(request, token) } });
}
