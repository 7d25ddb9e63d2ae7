// The names of the staff screens' filters and form fields, shared by the pages (which
// run in the browser too) and the API calls (server only).

/** The people list's filters (GET /api/studio/people). */
export const PEOPLE_FILTERS = ["q", "role", "status", "offset", "limit"] as const;

/** The audit log's filters (GET /api/studio/audit and its CSV). */
export const AUDIT_FILTERS = ["actor", "action", "subject", "from", "to", "before"] as const;

/** The records import's fields besides the mapping, in the form's order. */
export const IMPORT_FIELDS = ["collection", "title", "kind", "access", "save_mapping_as"] as const;

/** The scans form's fields, in its order. */
export const SCAN_FIELDS = ["files", "collection", "attach", "record", "record_id", "person", "manifest", "access"] as const;

/** Which trees the queue shows. */
export const TREE_STATES = ["waiting", "published", "all"] as const;
