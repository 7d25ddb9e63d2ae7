// A person's timeline: their own events and their families' (marriage, divorce…) in
// the order the API gives them (`position`: date ranges with birth before christening,
// death before burial, undated last — internal/trees/timeline.go decides it).
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
  return all.sort((a, b) => a.position - b.position);
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
