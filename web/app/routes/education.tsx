import { asText } from "@prismicio/client";
import { Link } from "react-router";
import type { Route } from "./+types/education";
import { Article } from "../features/content/Article";
import { CardList } from "../features/content/CardList";
import { ContentUnavailable } from "../components/ContentUnavailable";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { toCard } from "../features/content/cards";
import { createContentClient, pageUnavailable, getFeaturedItems, getPage } from "../features/content/content.server";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";
import type { AuthHandle } from "../features/auth/access";

export const EDUCATION_UID = "education";

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const client = createContentClient(request);
  const [page, featured] = await Promise.all([getPage(client, EDUCATION_UID), getFeaturedItems(client, 1, 6)]);
  const doc = page.value;
  const title = (doc && asText(doc.data.title).trim()) || "Education";
  return {
    title,
    body: doc?.data.body ?? [],
    featured: featured.value.results.map(toCard),
    unavailable: pageUnavailable(context, page.unavailable, featured.unavailable),
    seo: pageSeo({ request, url }, { title, description: doc?.data.description ?? "Learn about family history with the society." }),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function Education({ loaderData }: Route.ComponentProps) {
  const { title, body, featured, unavailable } = loaderData;
  return (
    <Article title={title} body={body} kicker={<ContentUnavailable show={unavailable} />}>
      <section aria-labelledby="education-featured" className="section">
        <h2 id="education-featured">Featured from the learning hub</h2>
        <CardList variant="grid" cards={featured} headingLevel={3} empty="No featured learning items yet." />
        <p>
          <Link to="/education/learning-hub/featured" className="button">
            All featured learning
          </Link>
        </p>
      </section>
    </Article>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
