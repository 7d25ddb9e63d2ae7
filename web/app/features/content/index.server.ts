// What other features may use of content on the server: the content API's client and queries.
export { createContentFetch } from "./content-fetch.server";
export { createContentClient, getEventBounds, getEvents } from "./content.server";
