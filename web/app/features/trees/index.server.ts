// What other features may use of family trees on the server: the pedigree search, as the visitor.
export { pedigreeSearch } from "./api.server";
