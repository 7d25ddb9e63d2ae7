import { pageTitle, routeMeta, type MetaDescriptor } from "../../lib/seo";

/** Head tags of sign-in and account pages: a title, and kept out of search engines. */
export function privateMeta(title: string) {
  return ({ error }: { error?: unknown }): MetaDescriptor[] =>
    error !== undefined && error !== null ? routeMeta({ error }) : [{ title: pageTitle(title) }, { name: "robots", content: "noindex" }];
}
