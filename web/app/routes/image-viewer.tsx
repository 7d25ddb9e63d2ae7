// /image-viewer/:slug? (seed-spec §2): without a slug, the image explorer (every
// item with scans, newest first as the images API lists them); with one, the item in the
// Universal Viewer with its title and metadata — or, for members-only scans and a
// visitor who is not a member, how to join. Go decides access (docs/iiif.md); this page
// only reports it.
import { Link } from "react-router";
import type { Route } from "./+types/image-viewer";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { ImageViewer, type ViewerHandle } from "../features/images";
import { accessLabel, isItemSlug, pagesText, restricted, IMAGE_VIEWER_PATH } from "../features/images/items";
import { ItemList } from "../features/images/ItemList";
import { MembersOnly } from "../features/images/MembersOnly";
import { listImageItems, loadImageItem, loadViewerData } from "../features/images/images.server";
import styles from "../features/images/images.module.css";
import type { AuthHandle } from "../features/auth/access";
import { getAuth } from "../features/auth/context";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";

// Public: anyone may look; members-only scans are refused by Go, not hidden here.
// The viewer (and UV.js in the head) on an item's page the visitor may see.
export const handle: AuthHandle & ViewerHandle<Awaited<ReturnType<typeof loader>>> = {
  auth: false,
  showsViewer: (data) => data.kind === "item" && data.viewer !== null,
};

const EXPLORER_TITLE = "Image explorer";

const notFound = () => new Response("This page could not be found", { status: 404, statusText: "Not Found" });

export async function loader({ request, params, url, context }: Route.LoaderArgs) {
  if (!params.slug) {
    const collection = url.searchParams.get("collection");
    const after = url.searchParams.get("after");
    // A malformed collection, one without scans, or a cursor the API refuses: 404.
    if (collection !== null && !isItemSlug(collection)) throw notFound();
    const wantedCollection = collection;
    const list = await listImageItems(context, { after, collection: wantedCollection });
    if (!list || (wantedCollection && list.items.length === 0)) throw notFound();
    const { items, next } = list;
    const collectionTitle = wantedCollection ? (items[0]?.collection.title ?? null) : null;
    const title = collectionTitle ? `Scans: ${collectionTitle}` : EXPLORER_TITLE;
    return {
      kind: "list" as const,
      title,
      collection: wantedCollection,
      items,
      next: next ? `${IMAGE_VIEWER_PATH}?${new URLSearchParams({ ...(wantedCollection ? { collection: wantedCollection } : {}), after: next })}` : null,
      seo: pageSeo({ request, url }, { title, description: "Scans from the society's collections: memorial cards, registers and birth briefs, to zoom into page by page." }, ["collection", "after"]),
    };
  }
  const item = await loadImageItem(context, params.slug);
  if (!item) throw notFound();
  const viewer = item.allowed ? await loadViewerData(context, item) : null;
  return {
    kind: "item" as const,
    title: item.label,
    item: {
      slug: item.slug,
      label: item.label,
      collection: item.collection,
      pages: item.pages,
      /** Who may see the scans when not everyone may ("Members only"…); null when public. */
      restricted: restricted(item) ? accessLabel(item) : null,
      allowed: item.allowed,
      manifest: item.allowed ? item.manifest : null,
    },
    viewer,
    signedIn: getAuth(context).state.loggedIn,
    path: url.pathname,
    seo: pageSeo({ request, url }, {
      title: item.label,
      description: `${item.label}: ${pagesText(item.pages)} from ${item.collection.title}${restricted(item) ? ` (${accessLabel(item).toLowerCase()})` : ""}.`,
      image: viewer?.preview?.src ? new URL(viewer.preview.src, url).href : null,
    }),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function ImageViewerPage({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "list") {
    return (
      <>
        <Breadcrumbs items={[{ to: "/", label: "Home" }]} />
        <h1>{loaderData.title}</h1>
        <p className={styles.lede}>
          Scans from our collections. Open one to zoom into the page and turn through every page of the item.
          {" "}Items marked “Members only” can be seen by members of the society.
        </p>
        {loaderData.collection ? (
          <p>
            <Link to={IMAGE_VIEWER_PATH}>All scans</Link>
          </p>
        ) : null}
        <ItemList items={loaderData.items} />
        {loaderData.next ? (
          <p className={styles.more}>
            <Link to={loaderData.next} className="button">
              More scans
            </Link>
          </p>
        ) : null}
      </>
    );
  }
  const { item, viewer } = loaderData;
  return (
    <>
      <Breadcrumbs items={[{ to: "/", label: "Home" }, { to: IMAGE_VIEWER_PATH, label: EXPLORER_TITLE }]} />
      <h1>{item.label}</h1>
      <p className={styles.lede}>
        {item.collection.title} · {pagesText(item.pages)}
        {item.restricted ? ` · ${item.restricted}` : null}
      </p>
      {viewer ? (
        // Keyed by manifest: going from one item to another starts a fresh viewer.
        <ImageViewer key={viewer.manifest} manifest={viewer.manifest} title={viewer.title} preview={viewer.preview} pages={viewer.pages} />
      ) : (
        <MembersOnly returnTo={loaderData.path} pages={item.pages} signedIn={loaderData.signedIn} />
      )}
      {viewer?.summary ? <p>{viewer.summary}</p> : null}
      <h2>About this item</h2>
      <dl className={styles.facts}>
        <dt>Collection</dt>
        <dd>
          <Link to={`${IMAGE_VIEWER_PATH}?${new URLSearchParams({ collection: item.collection.slug })}`}>{item.collection.title}</Link>
        </dd>
        <dt>Pages</dt>
        <dd>{item.pages}</dd>
        <dt>Access</dt>
        <dd>{item.restricted ?? "Everyone"}</dd>
        {(viewer?.metadata ?? [])
          .filter((m) => m.label.toLowerCase() !== "collection")
          .map((m, i) => (
            <MetadataRow key={`${i}-${m.label}`} label={m.label} value={m.value} />
          ))}
      </dl>
      {item.manifest ? (
        <p>
          For other IIIF viewers: <a href={item.manifest}>the item's IIIF manifest</a>.
        </p>
      ) : null}
    </>
  );
}

function MetadataRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
