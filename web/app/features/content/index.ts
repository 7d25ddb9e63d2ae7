// What other features may use of content: the document types, the link resolver and
// rich text. Server-only parts are in index.server.ts.
export type { EventDocument } from "./content-types";
export { linkResolver } from "./link-resolver";
export { demotedHeadings, RichText } from "./RichText";
