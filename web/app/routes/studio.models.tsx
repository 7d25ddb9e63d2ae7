// /studio/models and /studio/models/:id (admins): the document types the editor's forms
// are made from, as Prismic custom-type JSON. An admin's saved copy replaces the
// repository's model; "use the original" drops it again.
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/studio.models";
import { CsrfField, formStyles } from "../components/forms/Forms";
import { formFailure } from "../features/auth/index.server";
import { privateMeta } from "../features/auth/meta";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { isAdmin } from "../features/studio/access.server";
import { formToken, loadModels, resetModel, saveModel } from "../features/studio/api.server";
import { typeLabel } from "../features/studio/models";
import styles from "../features/studio/studio.module.css";

function adminOnly(context: Route.LoaderArgs["context"]) {
  if (!isAdmin(context)) throw new Response("Only administrators change the document types.", { status: 403, statusText: "Not allowed" });
}

export async function loader({ params, context }: Route.LoaderArgs) {
  adminOnly(context);
  const models = await loadModels(context);
  if (!models.ok) throw new Response("The document types could not be loaded just now", { status: 503 });
  const current = params.id ? models.body.types.find((t) => t.id === params.id) : undefined;
  if (params.id && !current) throw new Response("There is no such document type", { status: 404, statusText: "Not Found" });
  return { types: models.body.types.map((t) => ({ id: t.id, label: typeLabel(t), source: t.source ?? "file" })), current: current ?? null };
}

export const meta = privateMeta("Document types");

export async function action({ request, params, context }: Route.ActionArgs) {
  adminOnly(context);
  const form = await request.formData();
  const csrf = formToken(form);
  const id = params.id ?? "";
  if (form.get("intent") === "reset") {
    const done = await resetModel(context, csrf, id);
    if (done.ok) throw redirect(`/studio/models/${encodeURIComponent(id)}`);
    return data({ ...formFailure(done), json: "" }, { status: done.status || 502 });
  }
  const json = String(form.get("json") ?? "");
  let model: unknown;
  try {
    model = JSON.parse(json);
  } catch (error) {
    return data({ ok: false, message: `That is not valid JSON: ${error instanceof Error ? error.message : String(error)}`, errors: {}, json }, { status: 422 });
  }
  const done = await saveModel(context, csrf, id, model);
  if (done.ok) return { ok: true, message: "Saved. The editor uses it from now on.", errors: {}, json: "" };
  return data({ ...formFailure(done), json }, { status: done.status || 502 });
}

export default function StudioModels({ loaderData, actionData }: Route.ComponentProps) {
  const { types, current } = loaderData;
  if (!current) {
    return (
      <>
        <h1>Document types</h1>
        <p>Each kind of document has a model: its fields and what they may hold. The editor’s forms are made from them.</p>
        <ul className={styles.releaseList}>
          {types.map((t) => (
            <li key={t.id}>
              <Link to={`/studio/models/${encodeURIComponent(t.id)}`}>{t.label}</Link> ({t.source === "custom" ? "changed here" : "as shipped"})
            </li>
          ))}
        </ul>
      </>
    );
  }
  const answer = actionData;
  const messages = answer && !answer.ok ? [answer.message, ...Object.entries((answer.errors ?? {}) as Record<string, string[]>).map(([k, m]) => `${k}: ${m.join(" ")}`)].filter(Boolean) : [];
  return (
    <>
      <p className={styles.breadcrumb}>
        <Link to="/studio/models">Document types</Link>
      </p>
      <h1>{typeLabel(current)}</h1>
      <p>{current.source === "custom" ? "This model was changed here; it replaces the one shipped with Lineage." : "This is the model shipped with Lineage."}</p>
      {answer?.ok ? (
        <p role="status" className={styles.ok}>
          {answer.message}
        </p>
      ) : null}
      <Form method="post" key={JSON.stringify(current)}>
        <CsrfField />
        <div className={messages.length ? `${formStyles.field} ${formStyles.fieldError}` : formStyles.field}>
          <label htmlFor="model-json">The model (Prismic custom-type JSON)</label>
          <p id="model-json-hint" className={formStyles.hint}>
            Fields may be added, relabelled or marked <code>"required": true</code>. Documents already written keep their content.
          </p>
          {messages.length ? (
            <div id="model-json-error" className={formStyles.error}>
              <span className="visually-hidden">Error: </span>
              {messages.map((m) => (
                <p key={m}>{m}</p>
              ))}
            </div>
          ) : null}
          <textarea
            id="model-json"
            name="json"
            rows={24}
            className={`${formStyles.input} ${styles.wide} ${styles.code}`}
            defaultValue={answer && !answer.ok && answer.json ? answer.json : JSON.stringify({ ...current, source: undefined }, null, 2)}
            aria-describedby={`model-json-hint${messages.length ? " model-json-error" : ""}`}
            aria-invalid={messages.length ? true : undefined}
            spellCheck={false}
          />
        </div>
        <button type="submit" className="button button--primary">
          Save the model
        </button>
      </Form>
      {current.source === "custom" ? (
        <Form method="post" className={styles.stack}>
          <CsrfField />
          <input type="hidden" name="intent" value="reset" />
          <button type="submit" className="button">
            Use the shipped model again
          </button>
        </Form>
      ) : null}
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
