// /newsletter/preferences?token=… — reached from the link at the foot of every
// newsletter, without signing in: the token names the subscriber. Tick the lists to
// keep, or unsubscribe from all of them. Signed-in members also have
// /user-account/newsletter.
import { data, Form, Link } from "react-router";
import type { Route } from "./+types/newsletter.preferences";
import { CsrfField, ErrorSummary, FormStatus, formStyles, INCOMPLETE_LINK_MESSAGE, usePageForm } from "../components/forms/Forms";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { changePreferences, loadPreferences, type NewsletterResult } from "../features/newsletter/api.server";
import { ListChoices } from "../features/newsletter/ListChoices";
import type { AuthHandle } from "../features/auth/access";
import { privateMeta } from "../features/auth/meta";
import styles from "../features/newsletter/newsletter.module.css";

export const handle: AuthHandle = { auth: false };

export async function loader({ url, context }: Route.LoaderArgs) {
  const token = url.searchParams.get("token") ?? "";
  if (!token) return { token, preferences: null, problem: "incomplete" as const };
  const done = await loadPreferences(context, token);
  if (done.ok) return { token, preferences: done.body, problem: null };
  if (done.status === 422 || done.status === 404) return { token, preferences: null, problem: "invalid" as const };
  throw new Response("Your newsletter choices could not be loaded just now", { status: 503 });
}

export const meta = privateMeta("Your newsletter choices");

export async function action({ request, context }: Route.ActionArgs) {
  const result = await changePreferences(context, await request.formData());
  return data(result, { status: result.ok ? 200 : 422 });
}

export default function NewsletterPreferences({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as NewsletterResult | undefined;
  const { formRef, busy } = usePageForm(result);
  const preferences = result?.preferences ?? loaderData.preferences;

  if (!preferences) {
    return (
      <div>
        <h1>Your newsletter choices</h1>
        <p role="alert">
          {loaderData.problem === "incomplete"
            ? INCOMPLETE_LINK_MESSAGE
            : "This link is not valid. Please use the link at the foot of your latest newsletter."}
        </p>
        <p>
          Members can also change their choices in <Link to="/user-account/newsletter">their account</Link>.
        </p>
      </div>
    );
  }

  const ticked = new Set(preferences.lists.filter((l) => l.subscribed).map((l) => l.slug));
  // Without signing in nobody's scopes are known: members' lists are offered only to those who have them already.
  const shown = preferences.lists.filter((l) => l.audience === "public" || l.subscribed);
  const none = ticked.size === 0;
  return (
    <div>
      <h1>Your newsletter choices</h1>
      <p>
        For <strong>{preferences.email}</strong>.
      </p>
      <FormStatus result={result} />
      <ErrorSummary result={result} fields={["lists"]} idPrefix="preferences" />
      <Form method="post" ref={formRef} className={formStyles.form} noValidate aria-labelledby="choose-heading">
        <h2 id="choose-heading">What would you like by email?</h2>
        <CsrfField />
        <input type="hidden" name="token" value={loaderData.token} />
        <ListChoices
          // A new key after each save: the boxes show what the API now holds.
          key={[...ticked].join(",")}
          lists={shown}
          ticked={ticked}
          errors={result?.errors?.lists}
          idPrefix="preferences"
          legend="Tick the newsletters you want; untick the ones you do not."
        />
        <div className={formStyles.actions}>
          <button type="submit" name="intent" value="save" className={`button button--primary ${formStyles.button}`} disabled={busy}>
            Save my choices
          </button>
        </div>
      </Form>
      <section className={styles.section} aria-labelledby="unsubscribe-heading">
        <h2 id="unsubscribe-heading">Unsubscribe from everything</h2>
        {none ? (
          <p>You are not subscribed to any of our newsletters. We will not email you any.</p>
        ) : (
          <Form method="post" className={formStyles.form}>
            <CsrfField />
            <input type="hidden" name="token" value={loaderData.token} />
            <p>We will stop sending you every newsletter at once. You can sign up again at any time.</p>
            <button type="submit" name="intent" value="unsubscribe-all" className={`button ${formStyles.button}`} disabled={busy}>
              Unsubscribe from all newsletters
            </button>
          </Form>
        )}
      </section>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
