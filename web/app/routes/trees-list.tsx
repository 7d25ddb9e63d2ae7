// /research-hub/our-collections/family-trees: the published family trees (editors and
// owners also see the unpublished ones they may manage, marked as such).
import { Link } from "react-router";
import type { Route } from "./+types/trees-list";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { listTrees } from "../features/trees/api.server";
import { plural } from "../features/trees/format";
import { PEDIGREE_SEARCH_PATH, treePath, UPLOAD_PATH } from "../features/trees/slug";
import styles from "../features/trees/trees.module.css";
import { getAuth } from "../features/auth/context";
import type { AuthHandle } from "../features/auth/access";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";

export const handle: AuthHandle = { auth: false };

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const trees = await listTrees(context);
  return {
    trees,
    signedIn: getAuth(context).state.loggedIn,
    seo: pageSeo({ request, url }, { title: "Family trees", description: "Family trees given to the society by its members, to browse and search." }),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function TreesList({ loaderData }: Route.ComponentProps) {
  const { trees, signedIn } = loaderData;
  return (
    <>
      <Breadcrumbs items={[{ to: "/", label: "Home" }, { to: "/research-hub/our-collections", label: "Our collections" }]} />
      <h1>Family trees</h1>
      <p className={styles.lead}>
        Family trees given to the society by its members. Open a tree to browse its surnames, find a person and follow their
        family in the tree viewer, or <Link to={PEDIGREE_SEARCH_PATH}>search every tree at once</Link>.
      </p>
      {trees.length === 0 ? (
        <p>No family trees have been published yet.</p>
      ) : (
        <ul className={styles.treeList} aria-label="Family trees">
          {trees.map((t) => (
            <li key={t.slug}>
              <h2>
                <Link to={treePath(t.slug)}>{t.title}</Link>
              </h2>
              {!t.published ? <p className={styles["status-unpublished"]}>Unpublished: only its owner and editors can see it.</p> : null}
              {t.description ? <p>{t.description}</p> : null}
              <ul className={styles.counts} aria-label={`Size of ${t.title}`}>
                <li>{plural(t.counts.people, "person", "people")}</li>
                <li>{plural(t.counts.families, "family", "families")}</li>
                <li>{plural(t.counts.events, "event")}</li>
                <li>{plural(t.counts.sources, "source")}</li>
              </ul>
            </li>
          ))}
        </ul>
      )}
      <p>
        {signedIn ? (
          <Link to={UPLOAD_PATH}>Upload your own family tree (GEDCOM)</Link>
        ) : (
          <>Members can upload their own family tree as a GEDCOM file from their account.</>
        )}
      </p>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
