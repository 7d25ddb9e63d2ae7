// /user-account/newsletter (sign-in required): the member's own newsletters, for
// their account's address; no confirmation email, as the address is already proven.
import { data, Form, Link } from "react-router";
import type { Route } from "./+types/user-account.newsletter";
import { CsrfField, ErrorSummary, FormStatus, formStyles, usePageForm } from "../components/forms/Forms";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { loadMine, saveMine, type NewsletterResult } from "../features/newsletter/api.server";
import { ListChoices } from "../features/newsletter/ListChoices";
import { ACCOUNT_CONSENT_WORDING, listsOffered } from "../features/newsletter/signup";
import { useAuth } from "../features/auth/useAuth";
import { privateMeta } from "../features/auth/meta";
import styles from "../features/newsletter/newsletter.module.css";

// Sign-in required: the default, so no `handle.auth`.

export async function loader({ context }: Route.LoaderArgs) {
  const mine = await loadMine(context);
  if (!mine) throw new Response("Your newsletter choices could not be loaded just now", { status: 503 });
  return { mine };
}

export const meta = privateMeta("Your newsletters");

export async function action({ request, context }: Route.ActionArgs) {
  const result = await saveMine(context, await request.formData());
  return data(result, { status: result.ok ? 200 : 422 });
}

export default function AccountNewsletter({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as NewsletterResult | undefined;
  const { formRef, busy } = usePageForm(result);
  const auth = useAuth();
  const mine = result?.preferences ?? loaderData.mine;
  const subscribed = new Set(mine.lists.filter((l) => l.subscribed).map((l) => l.slug));
  // Lists the member may take, and any they already get (a members' list after their membership ended).
  const offered = listsOffered(mine.lists, auth.user?.scope);
  const shown = mine.lists.filter((l) => subscribed.has(l.slug) || offered.includes(l));
  const ticked = result && !result.ok ? new Set((result.values?.lists ?? "").split(",").filter(Boolean)) : subscribed;
  return (
    <div>
      <h1>Your newsletters</h1>
      <p>
        We send them to <strong>{mine.email}</strong>, your account's address. To use another address, change it in{" "}
        <Link to="/user-account#profile">your account</Link>.
      </p>
      <FormStatus result={result} />
      <ErrorSummary result={result} fields={["lists"]} idPrefix="mine" />
      <Form method="post" ref={formRef} className={formStyles.form} noValidate aria-labelledby="mine-heading">
        <h2 id="mine-heading">What would you like by email?</h2>
        <CsrfField />
        <input type="hidden" name="wording" value={ACCOUNT_CONSENT_WORDING} />
        <ListChoices
          key={[...ticked].join(",")}
          lists={shown}
          ticked={ticked}
          errors={result?.errors?.lists}
          idPrefix="mine"
          legend="Tick the newsletters you want; untick the ones you do not."
        />
        <p id="mine-consent" className={styles.consent}>
          {ACCOUNT_CONSENT_WORDING}
        </p>
        <div className={formStyles.actions}>
          <button type="submit" className={`button button--primary ${formStyles.button}`} aria-describedby="mine-consent" disabled={busy}>
            Save my choices
          </button>
        </div>
      </Form>
      <p>
        <Link to="/user-account#saved-searches">Emails about new records for your saved searches</Link> are set in your account, search
        by search.
      </p>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
