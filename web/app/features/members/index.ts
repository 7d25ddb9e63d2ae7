// What other features may use of the account area: the "save this search" form.
// Server-only parts are in index.server.ts.
export { SaveSearchForm } from "./SaveSearchForm";
