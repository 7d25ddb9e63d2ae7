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
