// The content API as tests of server-side content reads answer it: its address, the
// repository (one master ref) and a search's envelope.

export const ENDPOINT = "http://cms.test/content/api/v2";

/** The repository: what GET /api/v2 answers, with the master ref "MASTER". */
export const repository = {
  refs: [{ id: "master", ref: "MASTER", label: "Master", isMasterRef: true }],
  integrationFieldsRef: null,
  bookmarks: {},
  types: {},
  languages: [],
  tags: [],
  forms: {},
  experiments: {},
};

/** A search's answer with all of `results` on one page, numbered `page`. */
export function envelope(results: unknown[], page = 1) {
  return {
    page,
    results_per_page: 20,
    results_size: results.length,
    total_results_size: results.length,
    total_pages: results.length ? 1 : 0,
    next_page: null,
    prev_page: null,
    results,
  };
}

/** A published document as a search returns it: `title` as its heading, dated 1 May 2024. */
export function contentDocument(uid: string, title: string, type = "news_item") {
  return {
    id: `${type}-${uid}`,
    uid,
    type,
    lang: "en-gb",
    tags: [],
    url: null,
    href: "",
    slugs: [],
    linked_documents: [],
    alternate_languages: [],
    first_publication_date: "2024-01-01T00:00:00+0000",
    last_publication_date: "2024-01-01T00:00:00+0000",
    data: { title: [{ type: "heading1", text: title, spans: [] }], summary: [], date: "2024-05-01", image: {}, body: [] },
  };
}
