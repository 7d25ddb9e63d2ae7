// What other features may use of family trees on the server: the pedigree search, as the
// visitor, and the reading of a GEDCOM upload form.
export { pedigreeSearch, readTreeUpload } from "./api.server";
