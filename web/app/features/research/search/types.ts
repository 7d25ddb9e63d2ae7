// The research API's answers as the search pages read them (docs/research.md).
// A field that is null was withheld by the paywall; an empty string means the
// record does not have it. Access levels are read with lib/access-level.ts.
import type { Access } from "../../../lib/access-level";

export type { Access };

export interface Person {
  role: string;
  surname: string;
  given_names: string;
  sex?: string;
  age?: string | number;
}

export interface SearchResult {
  id: number;
  record_type: string;
  record_type_label: string;
  collection: string;
  collection_title: string;
  date: string | null;
  year: number | null;
  place: string | null;
  persons: Person[];
  match: number;
  score: number;
  access: Access;
  teaser: boolean;
}

export interface Facet {
  value: string;
  label: string;
  count: number;
}

export interface Facets {
  collection: Facet[];
  record_type: Facet[];
  decade: Facet[];
  county: Facet[];
}

export interface SearchAnswer {
  total: number;
  total_exact: boolean;
  results: SearchResult[];
  facets: Facets;
  facets_exact: boolean;
  next: string | null;
}

export interface CountAnswer {
  total: number;
  total_exact: boolean;
}

/** The API's 422: one message, and messages by parameter name. */
export interface ApiErrors {
  message: string;
  errors: Record<string, string[]>;
}

export interface CatalogueItem {
  id: number;
  collection: string;
  key?: string;
  title: string;
  authors?: string;
  year?: number | null;
  publisher?: string;
  subjects?: string;
  shelfmark?: string;
  reference?: string;
  date?: string;
  level?: string;
  description?: string;
  parent?: string;
}

export interface GlobalGroup<T> {
  total: number;
  total_exact: boolean;
  results: T[];
  search: string;
}

/** A person in a family tree, as the global search's family trees group gives it (docs/trees.md). */
export interface TreeHit {
  tree: { slug: string; title: string };
  person: {
    id: string;
    name: string;
    living?: boolean;
    birth?: { date?: { text?: string } | null; place?: string } | null;
    death?: { date?: { text?: string } | null; place?: string } | null;
  };
  url: string;
}

/** How the global search read its text as a name search (docs/research.md). */
export interface GlobalReading {
  surname: string;
  given: string;
  year: number;
  year_pm: number;
  place: string;
  /** The reading in words: "Smith, John, 1850 ± 2". */
  text: string;
  /** The first reading when the year was widened for want of records, else "". */
  asked: string;
}

export interface GlobalAnswer {
  q: string;
  /** null when the text names nobody. */
  reading: GlobalReading | null;
  archive: GlobalGroup<CatalogueItem>;
  family_trees: GlobalGroup<TreeHit>;
  index: GlobalGroup<SearchResult>;
  library: GlobalGroup<CatalogueItem>;
}

export interface CollectionSummary {
  slug: string;
  kind: string;
  title: string;
  description: string;
  access: Access;
  count: number;
}

export interface RecordPlace {
  text: string;
  id: number | null;
  path: string;
  lat?: number | null;
  lon?: number | null;
}

export interface RecordEvent {
  type: string;
  date: string;
  place: string;
}

export interface ResearchRecord {
  id: number;
  collection: { slug: string; title: string; kind: string; access: Access };
  record_type: string;
  record_type_label: string;
  key: string | null;
  date: string | null;
  year: number | null;
  date_range: { earliest: string; latest: string } | null;
  place: RecordPlace | null;
  persons: Person[];
  transcript: string | null;
  source: string | null;
  images: string[];
  events: RecordEvent[];
  access: Access;
  teaser: boolean;
}

export interface Place {
  id: number;
  name: string;
  kind: string;
  path: string;
}
