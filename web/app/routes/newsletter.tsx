// /newsletter: the public archive of past editions of public lists, newest first,
// with the sign-up form and the RSS feed (linked in the head).
import { Link } from "react-router";
import type { Route } from "./+types/newsletter";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { NewsletterSignup } from "../features/newsletter/SignupForm";
import { loadArchive } from "../features/newsletter/api.server";
import { pageUnavailable } from "../features/content/content.server";
import { NEWSLETTER_FEED, newsletterFeedLink } from "../features/newsletter/feed";
import styles from "../features/newsletter/newsletter.module.css";
import type { AuthHandle } from "../features/auth/access";
import { formatDate } from "../lib/dates";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";

export const handle: AuthHandle = { auth: false };

export const links: Route.LinksFunction = () => [newsletterFeedLink];

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const editions = await loadArchive(context);
  return {
    editions: editions ?? [],
    unavailable: pageUnavailable(context, editions === null),
    seo: pageSeo({ request, url }, { title: "Newsletters", description: "Past newsletters of the society, to read online." }),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function NewsletterArchive({ loaderData }: Route.ComponentProps) {
  const { editions, unavailable } = loaderData;
  return (
    <>
      <h1>Newsletters</h1>
      <p>
        Past newsletters of the society, newest first. Follow them in a feed reader with the{" "}
        <a href={NEWSLETTER_FEED}>newsletters feed (RSS)</a>.
      </p>
      {unavailable ? (
        <p role="status">Past newsletters cannot be shown just now. Please try again later.</p>
      ) : editions.length === 0 ? (
        <p>No newsletters have been sent yet.</p>
      ) : (
        <ol className={styles.editions}>
          {editions.map((e) => (
            <li key={e.id}>
              <h2>
                <Link to={`/newsletter/${e.id}`}>{e.subject}</Link>
              </h2>
              <p className={styles.meta}>
                {e.list_name}, <time dateTime={e.sent_at}>{formatDate(e.sent_at)}</time>
              </p>
              {e.summary ? <p>{e.summary}</p> : null}
            </li>
          ))}
        </ol>
      )}
      <NewsletterSignup idPrefix="archive-newsletter" heading="Get the next one by email" />
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
