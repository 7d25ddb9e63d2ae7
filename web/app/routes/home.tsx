import { asText } from "@prismicio/client";
import type { Route } from "./+types/home";
import { CardList } from "../features/content/CardList";
import { ContentUnavailable } from "../components/ContentUnavailable";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { Body } from "../features/content/Body";
import { SurnameSearch } from "../features/research/search/SurnameSearch";
import { RichText } from "../features/content/RichText";
import type { RouteHandle } from "../layouts/layouts";
import type { AuthHandle } from "../features/auth/access";
import { toCard } from "../features/content/cards";
import { trimContent } from "../features/content/trim";
import { createContentClient, pageUnavailable, getFeaturedItems, getHome, getNewsPage, getUpcomingEvents } from "../features/content/content.server";
import { routeMeta, SITE_NAME } from "../lib/seo";
import { pageSeo } from "../lib/site.server";
import { Link } from "react-router";
import type { ReactNode } from "react";

// Public (features/auth/access.ts; the default is sign-in required). Served without
// scripts: everything on it works as plain HTML (the surname search is a GET form, the
// footer's sign-up a post, a video a link to its page), and the home page is where a
// spike of first-time visitors lands. docs/decisions/023-light-front-end.md.
export const handle: RouteHandle & AuthHandle = { layout: "wide", auth: false, hydrate: false };

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const client = createContentClient(request);
  const [home, news, events, featured] = await Promise.all([
    getHome(client),
    getNewsPage(client, 1, 3),
    getUpcomingEvents(client, 3),
    getFeaturedItems(client, 1, 3),
  ]);
  const doc = home.value;
  const title = doc ? asText(doc.data.title).trim() : "";
  return {
    title: title || SITE_NAME,
    // Only what the components draw is serialised into the page (trimContent).
    intro: trimContent(doc?.data.intro ?? null),
    body: trimContent(doc?.data.body ?? []),
    news: news.value.results.map(toCard),
    events: events.value.map(toCard),
    featured: featured.value.results.map(toCard),
    unavailable: pageUnavailable(context, home.unavailable, news.unavailable, events.unavailable, featured.unavailable),
    seo: pageSeo({ request, url }, { title: title || SITE_NAME, description: doc ? asText(doc.data.intro).slice(0, 300) : null }),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function Home({ loaderData }: Route.ComponentProps) {
  const { title, intro, body, news, events, featured, unavailable } = loaderData;
  // A leading hero slice is the page's banner and holds its h1; otherwise the title does.
  const leadHero = body[0]?.slice_type === "hero" && asText(body[0].primary.title).trim() !== "";
  const first = body.slice(0, 1);
  const rest = body.slice(1);
  // The surname search sits near the top, under the introduction.
  const search = <SurnameSearch idPrefix="home-surname" title="Search for an ancestor" />;
  return (
    <>
      {leadHero ? null : (
        <section className="band band--intro">
          <div className="container">
            <h1>{title}</h1>
            <div className="lead">
              <RichText field={intro} />
            </div>
          </div>
        </section>
      )}
      <div className="container">
        <ContentUnavailable show={unavailable} />
        {leadHero ? (
          <>
            <Body slices={first} context={{ leadHeroIsPageHeading: true }} />
            <div className="lead">
              <RichText field={intro} />
            </div>
            {search}
            <Body slices={rest} />
          </>
        ) : (
          <>
            {search}
            <Body slices={body} />
          </>
        )}
      </div>
      <Band id="home-news" title="Latest news" more={{ to: "/news", label: "All news" }}>
        <CardList variant="grid" cards={news} headingLevel={3} empty="There is no news yet." />
      </Band>
      <Band id="home-events" title="Upcoming events" more={{ to: "/sog-events", label: "All events" }} tinted>
        <CardList variant="grid" cards={events} headingLevel={3} withTime empty="No upcoming events are planned at the moment." />
      </Band>
      <Band id="home-learning" title="Featured learning" more={{ to: "/education/learning-hub/featured", label: "More from the learning hub" }}>
        <CardList variant="grid" cards={featured} headingLevel={3} empty="No featured learning items yet." />
      </Band>
    </>
  );
}

/** A band of the home page: a heading, its cards and a link to all of them. */
function Band({ id, title, more, tinted, children }: { id: string; title: string; more: { to: string; label: string }; tinted?: boolean; children: ReactNode }) {
  return (
    <section className={tinted ? "band band--tinted" : "band"} aria-labelledby={id}>
      <div className="container">
        <h2 id={id}>{title}</h2>
        {children}
        <p>
          <Link to={more.to} className="button">
            {more.label}
          </Link>
        </p>
      </div>
    </section>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
