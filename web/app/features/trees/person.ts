// A person's timeline: their own events and their families' (marriage, divorce…),
// in date order, undated last in the order the file has them.
import type { Person, PersonEvent, PersonList, PersonSummary } from "./types";

export interface TimelineEvent extends PersonEvent {
  /** The partner of a family event. */
  with?: PersonSummary;
}

export function timelineOf(person: Pick<Person, "events" | "families">): TimelineEvent[] {
  const all: TimelineEvent[] = [
    ...(person.events ?? []),
    ...(person.families ?? []).flatMap((f) => (f.events ?? []).map((e) => ({ ...e, with: f.partner ?? undefined }))),
  ];
  const key = (e: TimelineEvent) => e.date?.earliest ?? null;
  return all
    .map((e, i) => ({ e, i }))
    .sort((a, b) => {
      const ka = key(a.e);
      const kb = key(b.e);
      if (ka && kb) return ka < kb ? -1 : ka > kb ? 1 : a.i - b.i;
      if (ka) return -1;
      if (kb) return 1;
      return a.i - b.i;
    })
    .map(({ e }) => e);
}

const LIST_WORDS: Record<PersonList, string> = {
  names: "names",
  events: "events",
  parents: "parent families",
  siblings: "siblings",
  families: "partners' families",
  sources: "sources",
  notes: "notes",
  media: "media links",
};

/**
 * What the page says under a list the API cut to keep the answer bounded
 * (docs/trees.md): "Showing 100 of 523 events." — or null when the list is whole.
 */
export function cutListText(person: Pick<Person, "more">, list: PersonList, shown: number): string | null {
  const more = person.more?.[list];
  if (!more || more.total <= shown) return null;
  return `Showing ${shown.toLocaleString("en-GB")} of ${more.total.toLocaleString("en-GB")} ${LIST_WORDS[list]}.`;
}
