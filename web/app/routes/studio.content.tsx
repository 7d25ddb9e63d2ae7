// /studio/content — the documents: filtered by type, status, tag and words, newest
// change first, with a form to start a new one.
import { requireStaff } from "../features/studio/access.server";
import { data, Form, Link, redirect, useSearchParams } from "react-router";
import type { Route } from "./+types/studio.content";
import { CsrfField, Field, formStyles, SelectField } from "../components/forms/Forms";
import { Pagination } from "../components/Pagination";
import { ScrollTable } from "../components/ScrollTable";
import { formFailure, getAuth } from "../features/auth/index.server";
import { privateMeta } from "../features/auth/meta";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { createDocument, formToken, listDocuments, loadModels, loadTags } from "../features/studio/api.server";
import { typeLabel } from "../features/studio/models";
import styles from "../features/studio/studio.module.css";
import { STATUS_WORDS, statusText, when } from "../features/studio/words";
import { parsePageParam } from "../lib/paging";

const STATUSES = ["draft", "scheduled", "published", "archived"] as const;
const SORTS = [
  { value: "-updated_at", label: "Latest change first" },
  { value: "updated_at", label: "Oldest change first" },
  { value: "title", label: "Title, A to Z" },
  { value: "-title", label: "Title, Z to A" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  requireStaff(context);
  const url = new URL(request.url);
  const get = (k: string) => url.searchParams.get(k)?.trim() ?? "";
  const page = parsePageParam(url.searchParams.get("page")) ?? 1;
  // "Me" is the only author offered: the API filters by account number.
  const me = getAuth(context).state.user?.id;
  const author = get("author") === "me" && me ? String(me) : "";
  const query = { type: get("type"), status: get("status"), tag: get("tag"), q: get("q"), sort: get("sort"), from: get("from"), to: get("to"), author, page };
  const [list, models, tags] = await Promise.all([listDocuments(context, query), loadModels(context), loadTags(context)]);
  if (!models.ok) throw new Response("The content list could not be loaded just now", { status: 503 });
  return {
    query: { ...query, author: author ? "me" : "" },
    list: list.ok ? list.body : null,
    problem: list.ok ? null : list.status === 422 ? Object.values(list.errors).flat().join(" ") || list.message || "Those filters cannot be used." : "The list could not be loaded just now.",
    types: models.body.types.map((t) => ({ id: t.id, label: typeLabel(t) })),
    tags: tags.ok ? tags.body.tags : [],
  };
}

export const meta = privateMeta("Content");

export async function action({ request, context }: Route.ActionArgs) {
  requireStaff(context);
  const form = await request.formData();
  const csrf = formToken(form);
  const type = String(form.get("type") ?? "");
  const done = await createDocument(context, csrf, { type });
  if (done.ok && done.body) throw redirect(`/studio/content/${encodeURIComponent(done.body.id)}`);
  const failure = done.ok ? { ok: false, message: "The document could not be made just now." } : formFailure(done);
  return data(failure, { status: done.ok ? 502 : done.status || 502 });
}

export default function StudioContent({ loaderData, actionData }: Route.ComponentProps) {
  const { query, list, problem, types, tags } = loaderData;
  const [params] = useSearchParams();
  const typeName = (id: string) => types.find((t) => t.id === id)?.label ?? id;
  const base = (() => {
    const p = new URLSearchParams(params);
    p.delete("page");
    const s = p.toString();
    return `/studio/content${s ? `?${s}` : ""}`;
  })();
  const totalPages = list ? Math.max(1, Math.ceil(list.total / Math.max(1, list.page_size))) : 1;
  return (
    <>
      <h1>Content</h1>

      <section aria-labelledby="new-h" className={styles.panel}>
        <h2 id="new-h">Write something new</h2>
        {actionData && !actionData.ok ? (
          <p role="alert" className={formStyles.error}>
            {actionData.message ?? Object.values(actionData.errors ?? {}).flat().join(" ")}
          </p>
        ) : null}
        <Form method="post" className={styles.addRow} aria-labelledby="new-h">
          <CsrfField />
          <label htmlFor="new-type">Kind of document</label>
          <select id="new-type" name="type" className={formStyles.input} defaultValue={query.type || "news_item"}>
            {types.map((t) => (
              <option key={t.id} value={t.id}>
                {t.label}
              </option>
            ))}
          </select>
          <button type="submit" className="button button--primary">
            Start writing
          </button>
        </Form>
      </section>

      <search>
        <Form method="get" className={styles.filters} aria-label="Find documents">
          <Field name="q" idPrefix="f" label="Words" type="search" defaultValue={query.q} />
          <SelectField name="type" idPrefix="f" label="Kind" options={[{ value: "", label: "All kinds" }, ...types.map((t) => ({ value: t.id, label: t.label }))]} defaultValue={query.type} />
          <SelectField
            name="status"
            idPrefix="f"
            label="Status"
            options={[{ value: "", label: "All but archived" }, ...STATUSES.map((s) => ({ value: s, label: STATUS_WORDS[s] }))]}
            defaultValue={query.status}
          />
          <SelectField name="tag" idPrefix="f" label="Tag" options={[{ value: "", label: "Any tag" }, ...tags.map((t) => ({ value: t, label: t }))]} defaultValue={query.tag} />
          <SelectField
            name="author"
            idPrefix="f"
            label="Written or changed by"
            options={[
              { value: "", label: "Anyone" },
              { value: "me", label: "Me" },
            ]}
            defaultValue={query.author}
          />
          <Field name="from" idPrefix="f" label="Changed from" type="date" defaultValue={query.from} />
          <Field name="to" idPrefix="f" label="Changed until" type="date" defaultValue={query.to} />
          <SelectField name="sort" idPrefix="f" label="Order" options={SORTS} defaultValue={query.sort || "-updated_at"} />
          <div className={styles.filterActions}>
            <button type="submit" className="button button--primary">
              Show
            </button>
            <Link to="/studio/content" className="button">
              Clear
            </Link>
          </div>
        </Form>
      </search>

      {problem ? <p role="alert">{problem}</p> : null}
      {list ? (
        <>
          <p role="status">
            {list.total === 0 ? "No documents match." : list.total === 1 ? "1 document." : `${list.total} documents.`}
          </p>
          {list.results.length ? (
            <ScrollTable label="Documents" columns={["Title", "Kind", "Status", "Last changed", "Tags"]} className={styles.tableWrap} tableClassName={styles.table}>
              <tbody>
                {list.results.map((d) => (
                  <tr key={d.id}>
                    <td>
                      <Link to={`/studio/content/${encodeURIComponent(d.id)}`}>{d.title || d.uid || d.id}</Link>
                    </td>
                    <td>{typeName(d.type)}</td>
                    <td>{statusText(d.status, d.has_changes)}</td>
                    <td>
                      {when(d.updated_at)}
                      {d.updated_by ? ` by ${d.updated_by.name}` : ""}
                    </td>
                    <td>{d.tags.join(", ")}</td>
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
          ) : null}
          <Pagination page={list.page} totalPages={totalPages} basePath={base} label="Pages of documents" />
        </>
      ) : null}
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
