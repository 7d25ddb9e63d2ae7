// An event document as the content API returns it, for the tests of the events lists,
// summaries and calendar feed.
import type { EventDocument } from "../content";

/**
 * The event `uid`, titled "Event {uid}", from start to end at location (each as the API
 * may send it, null or not a date included); `summary` is its one paragraph, if any.
 */
export function eventDocument(
  uid: string,
  start: string | null,
  end: string | null,
  location: string | null,
  { summary }: { summary?: string } = {},
): EventDocument {
  return {
    id: `ID${uid}`.slice(0, 16),
    uid,
    type: "event",
    url: null,
    href: "",
    lang: "en-gb",
    tags: [],
    slugs: [],
    linked_documents: [],
    alternate_languages: [],
    first_publication_date: "2026-01-20T10:00:00+0000",
    last_publication_date: "2026-02-01T09:30:00+0000",
    data: {
      title: [{ type: "heading1", text: `Event ${uid}`, spans: [] }],
      summary: summary ? [{ type: "paragraph", text: summary, spans: [] }] : [],
      start,
      end,
      location,
      body: [],
    },
  } as unknown as EventDocument;
}
