// What other features may use of family trees: the pedigree search's answer and the
// trees' paths. Server-only parts are in index.server.ts.
export { plural } from "./format";
export { PEDIGREE_SEARCH_PATH, personPath, treePath } from "./slug";
export type { PedigreeSearchAnswer, PersonSummary } from "./types";
