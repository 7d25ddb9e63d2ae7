// What other features may use of the account area on the server: recording a search in the member's history.
export { recordSearch } from "./search-history.server";
