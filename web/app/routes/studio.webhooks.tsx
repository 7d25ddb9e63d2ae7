// /studio/webhooks (admins): where publishing is announced (Prismic's webhook body, the
// addresses set by LINEAGE_CONTENT_WEBHOOK_URL) and how the latest deliveries went;
// "Send a test" queues one to each address.
import { data, Form } from "react-router";
import type { Route } from "./+types/studio.webhooks";
import { CsrfField, formStyles } from "../components/forms/Forms";
import { formFailure } from "../features/auth/index.server";
import { privateMeta } from "../features/auth/meta";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { isAdmin } from "../features/studio/access.server";
import { formToken, loadWebhooks, testWebhooks } from "../features/studio/api.server";
import styles from "../features/studio/studio.module.css";
import { when } from "../features/studio/words";
import { ScrollTable } from "../components/ScrollTable";

const STATUS_WORDS = { pending: "Waiting to be sent", delivered: "Delivered", failed: "Failed" } as const;

function adminOnly(context: Route.LoaderArgs["context"]) {
  if (!isAdmin(context)) throw new Response("Only administrators see the webhooks.", { status: 403, statusText: "Not allowed" });
}

export async function loader({ context }: Route.LoaderArgs) {
  adminOnly(context);
  const hooks = await loadWebhooks(context);
  if (!hooks.ok) throw new Response("The webhooks could not be loaded just now", { status: 503 });
  return hooks.body;
}

export const meta = privateMeta("Webhooks");

export async function action({ request, context }: Route.ActionArgs) {
  adminOnly(context);
  const form = await request.formData();
  const csrf = formToken(form);
  const done = await testWebhooks(context, csrf);
  if (done.ok) return { ok: true, message: done.body?.queued === 1 ? "A test is on its way." : `${done.body?.queued ?? 0} tests are on their way.` };
  if (done.status === 409) return data({ ok: false, message: "No webhook address is set, so there is nothing to test." }, { status: 409 });
  return data(formFailure(done), { status: done.status || 502 });
}

export default function StudioWebhooks({ loaderData, actionData }: Route.ComponentProps) {
  const { urls, deliveries } = loaderData;
  return (
    <>
      <h1>Webhooks</h1>
      <p>
        When something is published, taken off the site or released, Lineage tells these addresses, in the form Prismic uses, so that
        services built for Prismic keep working. The addresses are set on the server (<code>LINEAGE_CONTENT_WEBHOOK_URL</code>).
      </p>
      {urls.length === 0 ? (
        <p>No webhook address is set.</p>
      ) : (
        <ul className={styles.releaseList}>
          {urls.map((u) => (
            <li key={u}>
              <code>{u}</code>
            </li>
          ))}
        </ul>
      )}
      {actionData ? (
        <p role={actionData.ok ? "status" : "alert"} className={actionData.ok ? styles.ok : formStyles.error}>
          {actionData.message}
        </p>
      ) : null}
      {urls.length ? (
        <Form method="post">
          <CsrfField />
          <button type="submit" className="button">
            Send a test
          </button>
        </Form>
      ) : null}
      <h2>Latest deliveries</h2>
      {deliveries.length === 0 ? (
        <p>None yet.</p>
      ) : (
        <ScrollTable label="Latest deliveries" caption="Latest deliveries, newest first" columns={["When", "Address", "Outcome", "Tries"]} className={styles.tableWrap} tableClassName={styles.table}>
          <tbody>
            {deliveries.map((d) => (
              <tr key={d.id}>
                <td>{when(d.created_at)}</td>
                <td>
                  <code>{d.url}</code>
                </td>
                <td>
                  {STATUS_WORDS[d.status] ?? d.status}
                  {d.status !== "delivered" && d.last_error ? `: ${d.last_error}` : ""}
                  {d.status === "pending" && d.next_at ? ` (next try ${when(d.next_at)})` : ""}
                </td>
                <td>{d.attempts}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
