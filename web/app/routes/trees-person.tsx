// /research-hub/our-collections/family-trees-record/:slug — one person of a family
// tree; the slug is "{tree}~{person id}" (features/trees/slug.ts, docs/web.md). Names,
// a timeline of events, parents, partners and children, siblings, sources, notes,
// media, and the bookmark toggle. A living person comes from the API as "Living" with
// every detail left out, and this page shows only what the API sent.
import type { ReactNode } from "react";
import { Link, redirect } from "react-router";
import type { Route } from "./+types/trees-person";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { bookmarkState } from "../features/members/api.server";
import { BookmarkToggle } from "../features/members/BookmarkToggle";
import { ItemScans, type ViewerHandle } from "../features/images";
import { loadPersonScans } from "../features/images/images.server";
import { getPerson, notFound } from "../features/trees/api.server";
import { dateText, summaryYears } from "../features/trees/format";
import { cutListText, timelineOf } from "../features/trees/person";
import { parsePersonSlug, personPath, TREES_PATH, treePath, viewerHref } from "../features/trees/slug";
import styles from "../features/trees/trees.module.css";
import type { Person, PersonList, PersonSummary } from "../features/trees/types";
import type { AuthHandle } from "../features/auth/access";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";

// The viewer (and UV.js in the head) only when the person's scans are served.
export const handle: AuthHandle & ViewerHandle<Awaited<ReturnType<typeof loader>>> = {
  auth: false,
  showsViewer: (data) => Boolean(data.scans?.viewer),
};

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  if (!params.slug) throw redirect(TREES_PATH);
  const ref = parsePersonSlug(params.slug);
  if (!ref) throw notFound();
  const [person, bookmark] = await Promise.all([getPerson(context, ref.tree, ref.person), bookmarkState(context, url.pathname)]);
  if (!person) throw notFound();
  // Scans attached to this person (lineage import images, manifest column person); never for the living.
  const scans = person.living ? null : await loadPersonScans(context, ref.tree, ref.person);
  const years = summaryYears(person);
  return {
    ref,
    person,
    bookmark,
    scans,
    path: url.pathname,
    seo: pageSeo({ request, url }, { title: `${person.name}${years ? ` (${years})` : ""} in ${person.tree.title}`, description: null }),
  };
}

export const meta: Route.MetaFunction = routeMeta;

function Relative({ tree, person, note }: { tree: string; person: PersonSummary; note?: string }) {
  const years = summaryYears(person);
  return (
    <>
      <Link to={personPath(tree, person.id)}>{person.name}</Link>
      {years ? ` (${years})` : ""}
      {note ? ` — ${note}` : ""}
    </>
  );
}

/** Under a list the API cut to keep the answer bounded: how much of it is shown. */
function CutNote({ person, list, shown }: { person: Pick<Person, "more">; list: PersonList; shown: number }) {
  const text = cutListText(person, list, shown);
  return text ? <p className={styles.notice}>{text}</p> : null;
}

/** One of the person's lists under its heading, with the note when the API cut it; nothing when it is empty. */
function ListSection({ person, list, title, children }: { person: Person; list: "sources" | "notes" | "media"; title: string; children: ReactNode }) {
  if (!person[list].length) return null;
  return (
    <section aria-labelledby={list}>
      <h2 id={list}>{title}</h2>
      {children}
      <CutNote person={person} list={list} shown={person[list].length} />
    </section>
  );
}

export default function PersonPage({ loaderData }: Route.ComponentProps) {
  const { ref, person, bookmark, scans, path } = loaderData;
  const tree = ref.tree;
  const years = summaryYears(person);
  const timeline = timelineOf(person);
  const otherNames = person.names.slice(1);
  const sexWord = person.sex === "M" ? "Male" : person.sex === "F" ? "Female" : person.sex === "X" ? "Other" : "";
  return (
    <article>
      <Breadcrumbs
        items={[
          { to: "/", label: "Home" },
          { to: "/research-hub/our-collections", label: "Our collections" },
          { to: TREES_PATH, label: "Family trees" },
          { to: treePath(tree), label: person.tree.title },
        ]}
      />
      <h1>
        {person.name}
        {years ? <span className={styles.years}> ({years})</span> : null}
      </h1>
      <BookmarkToggle state={bookmark} title={`${person.name}${years ? ` (${years})` : ""} — ${person.tree.title}`} />
      {person.living ? <p className={styles.notice}>This person may be living, so their details are private.</p> : null}
      {person.truncated ? <p className={styles.notice}>Some long texts and lists of this person are shortened here.</p> : null}
      <p>
        In <Link to={treePath(tree)}>{person.tree.title}</Link>.{" "}
        <Link to={viewerHref(tree, { person: person.id, chart: "hourglass", generations: 4 })}>
          Show {person.living ? "this person" : person.name} in the tree viewer
        </Link>
      </p>

      {sexWord || otherNames.length || person.names[0]?.nickname ? (
        <dl className={styles.facts}>
          {sexWord ? (
            <>
              <dt>Sex</dt>
              <dd>{sexWord}</dd>
            </>
          ) : null}
          {person.names[0]?.nickname ? (
            <>
              <dt>Known as</dt>
              <dd>{person.names[0].nickname}</dd>
            </>
          ) : null}
          {otherNames.length ? (
            <>
              <dt>Other names</dt>
              <dd>
                <ul className={styles.people}>
                  {otherNames.map((n, i) => (
                    <li key={i}>
                      {n.full}
                      {n.type ? ` (${n.type})` : ""}
                      {n.nickname ? `, known as ${n.nickname}` : ""}
                    </li>
                  ))}
                </ul>
                <CutNote person={person} list="names" shown={person.names.length} />
              </dd>
            </>
          ) : null}
        </dl>
      ) : null}

      {timeline.length ? (
        <section aria-labelledby="timeline">
          <h2 id="timeline">Timeline</h2>
          <ol className={styles.timeline}>
            {timeline.map((e, i) => (
              <li key={i}>
                <span className={styles.when}>{e.date ? dateText(e.date.text) : "Date unknown"}</span>: {e.label}
                {e.value ? ` — ${e.value}` : ""}
                {e.with ? (
                  <>
                    {" "}
                    with <Link to={personPath(tree, e.with.id)}>{e.with.name}</Link>
                  </>
                ) : null}
                {e.place ? `, ${e.place}` : ""}
                {e.age ? `, aged ${e.age}` : ""}
                {e.cause ? `, cause: ${e.cause}` : ""}
                {e.notes?.map((n, j) => (
                  <p key={j}>{n}</p>
                ))}
              </li>
            ))}
          </ol>
          <CutNote person={person} list="events" shown={person.events.length} />
        </section>
      ) : null}

      <section aria-labelledby="family">
        <h2 id="family">Family</h2>
        <h3>Parents</h3>
        {person.parents.length === 0 ? (
          <p>No parents recorded.</p>
        ) : (
          person.parents.map((p) => (
            <div key={p.family}>
              {p.pedigree && p.pedigree !== "birth" ? <p>Family ({p.pedigree}):</p> : null}
              <ul className={styles.people}>
                {p.partners.map((parent) => (
                  <li key={parent.id}>
                    <Relative tree={tree} person={parent} />
                  </li>
                ))}
              </ul>
            </div>
          ))
        )}
        <CutNote person={person} list="parents" shown={person.parents.length} />
        <h3>Partners and children</h3>
        {person.families.length === 0 ? (
          <p>No partners or children recorded.</p>
        ) : (
          person.families.map((f) => (
            <div key={f.id}>
              <p>
                {f.partner ? (
                  <>
                    Partner: <Relative tree={tree} person={f.partner} />
                  </>
                ) : (
                  "Partner not recorded"
                )}
              </p>
              {f.children.length ? (
                <>
                  <p>Children{f.partner ? ` with ${f.partner.name}` : ""}:</p>
                  <ul className={styles.people}>
                    {f.children.map((c) => (
                      <li key={c.id}>
                        <Relative tree={tree} person={c} note={c.pedigree && c.pedigree !== "birth" ? c.pedigree : undefined} />
                      </li>
                    ))}
                  </ul>
                </>
              ) : (
                <p>No children recorded{f.partner ? " with this partner" : ""}.</p>
              )}
            </div>
          ))
        )}
        <CutNote person={person} list="families" shown={person.families.length} />
        <h3>Siblings</h3>
        {person.siblings.length === 0 ? (
          <p>No siblings recorded.</p>
        ) : (
          <ul className={styles.people}>
            {person.siblings.map((s) => (
              <li key={`${s.family}-${s.id}`}>
                <Relative tree={tree} person={s} />
              </li>
            ))}
          </ul>
        )}
        <CutNote person={person} list="siblings" shown={person.siblings.length} />
      </section>

      <ListSection person={person} list="sources" title="Sources">
        <ol>
          {person.sources.map((s, i) => (
            <li key={i}>
              <cite>{s.title || "Untitled source"}</cite>
              {s.author ? `, ${s.author}` : ""}
              {s.publication ? `, ${s.publication}` : ""}
              {s.page ? `: ${s.page}` : ""}
              {s.text ? <blockquote>{s.text}</blockquote> : null}
            </li>
          ))}
        </ol>
      </ListSection>

      <ListSection person={person} list="notes" title="Notes">
        {person.notes.map((n, i) => (
          <p key={i} className={styles.note}>
            {n}
          </p>
        ))}
      </ListSection>

      <ListSection person={person} list="media" title="Media">
        <ul>
          {person.media.map((m, i) => (
            <li key={i}>
              {m.url ? <a href={m.url}>{m.title || m.file}</a> : (m.title || m.file)}
              {m.url || !m.title ? "" : ` (${m.file})`}
            </li>
          ))}
        </ul>
      </ListSection>

      {scans?.items.length ? <ItemScans scans={scans} returnTo={path} /> : null}
    </article>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
