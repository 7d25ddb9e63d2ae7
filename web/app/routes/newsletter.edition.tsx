// /newsletter/:id — one edition of the public archive, as it was mailed (without any
// personal link), and its plain-text version.
import { Link } from "react-router";
import type { Route } from "./+types/newsletter.edition";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { EmailFrame } from "../features/newsletter/EmailFrame";
import { loadArchivedEdition } from "../features/newsletter/api.server";
import { newsletterFeedLink } from "../features/newsletter/feed";
import styles from "../features/newsletter/newsletter.module.css";
import type { AuthHandle } from "../features/auth/access";
import { formatDate } from "../lib/dates";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";

export const handle: AuthHandle = { auth: false };

export const links: Route.LinksFunction = () => [newsletterFeedLink];

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const edition = await loadArchivedEdition(context, params.id);
  if (edition === "unavailable") throw new Response("This newsletter could not be loaded just now", { status: 503 });
  if (!edition) throw new Response("This page could not be found", { status: 404 });
  return {
    edition,
    seo: pageSeo({ request, url }, { title: edition.subject, description: `${edition.list_name}, ${formatDate(edition.sent_at)}`, type: "article" }),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function NewsletterEdition({ loaderData }: Route.ComponentProps) {
  const { edition } = loaderData;
  return (
    <article>
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Newsletters", to: "/newsletter" }]} />
      <h1>{edition.subject}</h1>
      <p className={styles.meta}>
        {edition.list_name}, sent on <time dateTime={edition.sent_at}>{formatDate(edition.sent_at)}</time>
      </p>
      <EmailFrame html={edition.html} title={`The newsletter “${edition.subject}”`} />
      <details>
        <summary>Read it as plain text</summary>
        <pre className={styles.plain}>{edition.text}</pre>
      </details>
      <p>
        <Link to="/newsletter">All past newsletters</Link>
      </p>
    </article>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
