// /newsletter/confirm?token=… — the page the sign-up's confirmation email links to.
// A button confirms, so a mail scanner that opens links does not use up the
// single-use token; the action posts it to the API.
import { data, Link } from "react-router";
import type { Route } from "./+types/newsletter.confirm";
import { ErrorSummary, FormStatus, MailedLinkForm, useSubmitting } from "../components/forms/Forms";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { confirm, type NewsletterResult } from "../features/newsletter/api.server";
import { listNames } from "../features/newsletter/signup";
import type { AuthHandle } from "../features/auth/access";
import { privateMeta } from "../features/auth/meta";

export const handle: AuthHandle = { auth: false };

export function loader({ url }: Route.LoaderArgs) {
  return { token: url.searchParams.get("token") ?? "" };
}

export const meta = privateMeta("Confirm your newsletter sign-up");

export async function action({ request, context }: Route.ActionArgs) {
  const result = await confirm(context, await request.formData());
  return data(result, { status: result.ok ? 200 : 422 });
}

export default function NewsletterConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as NewsletterResult | undefined;
  const busy = useSubmitting();

  if (result?.ok && result.preferences) {
    const lists = result.preferences.lists.filter((l) => l.subscribed !== false);
    return (
      <div>
        <h1>You are signed up</h1>
        <FormStatus>
          <p>
            Thank you. We will send {listNames(lists) || "our newsletter"} to <strong>{result.preferences.email}</strong>.
          </p>
        </FormStatus>
        <p>Every newsletter has a link at the bottom to change what you get or to unsubscribe.</p>
        {result.preferencesToken ? (
          <p>
            <Link to={`/newsletter/preferences?${new URLSearchParams({ token: result.preferencesToken })}`}>Change what you get</Link>
          </p>
        ) : null}
        <p>
          <Link to="/newsletter">Read past newsletters</Link>
        </p>
      </div>
    );
  }

  return (
    <div>
      <h1>Confirm your newsletter sign-up</h1>
      <ErrorSummary result={result} fields={[]} />
      <MailedLinkForm token={loaderData.token} busy={busy} prompt={<p>Press the button to confirm that you want our newsletter at this address.</p>}>
        Yes, sign me up
      </MailedLinkForm>
      {result && !result.ok ? (
        <p>
          Links work once and for 48 hours. <Link to="/newsletter/subscribe">Sign up again</Link> to get a new one.
        </p>
      ) : null}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
