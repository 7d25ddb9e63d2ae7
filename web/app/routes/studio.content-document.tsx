// /studio/content/:id — the editor of one document (features/studio/DocumentEditor).
import { requireStaff } from "../features/studio/access.server";
import { data, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/studio.content-document";
import { privateMeta } from "../features/auth/meta";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { listReleases, loadDocument, loadModels, loadTags } from "../features/studio/api.server";
import { DocumentEditor } from "../features/studio/DocumentEditor";
import { editorAction } from "../features/studio/editor.server";

export async function loader({ params, context }: Route.LoaderArgs) {
  requireStaff(context);
  const [doc, models, tags, releases] = await Promise.all([loadDocument(context, params.id), loadModels(context), loadTags(context), listReleases(context)]);
  if (!doc.ok && doc.status === 404) throw new Response("This document could not be found", { status: 404, statusText: "Not Found" });
  if (!doc.ok || !models.ok) throw new Response("The content editor could not be loaded just now", { status: 503 });
  const type = models.body.types.find((t) => t.id === doc.body.type);
  if (!type) throw new Response(`There is no model for documents of type “${doc.body.type}”`, { status: 503 });
  return {
    doc: doc.body,
    type,
    slices: models.body.slices ?? [],
    tags: tags.ok ? tags.body.tags : [],
    releases: releases.ok ? releases.body.results : [],
  };
}

export const meta = privateMeta("Edit a document");

export async function action({ request, params, context }: Route.ActionArgs) {
  requireStaff(context);
  const answer = await editorAction(context, params.id, await request.formData());
  if (answer instanceof Response) return answer;
  return data(answer, { status: answer.ok ? 200 : answer.status && answer.status >= 400 ? answer.status : 502 });
}

// A save that gets no answer at all (the network, the server restarting) is a failed
// save the editor can show and retry, not an error page over what was typed.
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const intent = String((await request.clone().formData()).get("intent") ?? "");
  try {
    return await serverAction();
  } catch (error) {
    if (error instanceof Response) throw error;
    return { intent, ok: false, status: 0, message: "the server did not answer" };
  }
}

// The editor keeps its own state: a save's answer must not reload the document under it.
// Another document (a copy's redirect carries the copy action's method) loads as usual.
export function shouldRevalidate({ formMethod, currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  return formMethod && formMethod.toUpperCase() === "POST" ? false : defaultShouldRevalidate;
}

export default function StudioDocument({ loaderData }: Route.ComponentProps) {
  const { doc, type, slices, tags, releases } = loaderData;
  return <DocumentEditor key={doc.id} doc={doc} type={type} slices={slices} tags={tags} releases={releases} />;
}

export { RouteErrorBoundary as ErrorBoundary };
