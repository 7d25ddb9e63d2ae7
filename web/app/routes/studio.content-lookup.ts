// /studio/content/lookup — what the editor asks for while one types: documents to link
// to (kind=links), pictures of the library (kind=media), whether an address is free
// (kind=uid). JSON for the editor's fetchers; staff only, like the whole studio.
import type { Route } from "./+types/studio.content-lookup";
import { requireStaff } from "../features/studio/access.server";
import { checkUid, listMedia, searchLinks } from "../features/studio/api.server";

const UNAVAILABLE = { message: "The search is not available just now." };

export async function loader({ request, context }: Route.LoaderArgs) {
  requireStaff(context);
  const url = new URL(request.url);
  const p = (k: string) => (url.searchParams.get(k) ?? "").slice(0, 200);
  switch (p("kind")) {
    case "links": {
      const r = await searchLinks(context, { q: p("q"), type: p("type") || undefined });
      return Response.json(r.ok ? r.body : UNAVAILABLE);
    }
    case "media": {
      const r = await listMedia(context, { q: p("q"), page_size: 24 });
      return Response.json(r.ok ? r.body : UNAVAILABLE);
    }
    case "uid": {
      const r = await checkUid(context, { type: p("type"), lang: p("lang") || undefined, uid: p("uid"), id: p("id") || undefined });
      // Without an answer nothing is said about the address; saving checks it again.
      return Response.json(r.ok ? r.body : UNAVAILABLE);
    }
    default:
      return Response.json({ message: "Unknown lookup." }, { status: 400 });
  }
}
