// /newsletter/subscribe: the sign-up page, and the action behind every sign-up form
// (footer, content slices). With JavaScript those forms post as fetchers and stay
// where they are; a plain post comes here and this page shows the result.
import { data } from "react-router";
import type { Route } from "./+types/newsletter.subscribe";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { NewsletterSignup } from "../features/newsletter/SignupForm";
import { subscribe, type NewsletterResult } from "../features/newsletter/api.server";
import type { AuthHandle } from "../features/auth/access";
import { pageTitle } from "../lib/seo";

export const handle: AuthHandle = { auth: false };

export function loader() {
  return null;
}

export const meta: Route.MetaFunction = () => [
  { title: pageTitle("Sign up for our newsletter") },
  { name: "description", content: "Get the society's news, new indexes and events by email." },
];

export async function action({ request, context }: Route.ActionArgs) {
  const result = await subscribe(context, await request.formData());
  return data(result, { status: result.ok ? 200 : 422 });
}

export default function NewsletterSubscribe({ actionData }: Route.ComponentProps) {
  const result = actionData as NewsletterResult | undefined;
  return (
    <div>
      <h1>Sign up for our newsletter</h1>
      <p>
        Choose what you would like by email: the society's news, the events digest, or both; members signed in to their account can
        also have the members' newsletter. You can read <a href="/newsletter">past newsletters</a> first.
      </p>
      <NewsletterSignup idPrefix="newsletter" heading="Your details" pageResult={result} source={result?.values?.source || undefined} />
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
