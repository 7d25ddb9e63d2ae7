// The family-tree API's objects as docs/trees.md describes them.
import { surnameModeOptions } from "../../lib/vocabulary";

export interface TreeCounts {
  people: number;
  families: number;
  events: number;
  sources: number;
  notes?: number;
  media?: number;
}

export interface Tree {
  slug: string;
  title: string;
  description: string;
  published: boolean;
  owner: { id: number; name: string } | null;
  source_file?: string;
  gedcom_version?: string;
  counts: TreeCounts;
  created_at?: string;
  updated_at?: string;
  published_at: string | null;
  can_manage?: boolean;
}

export interface DateValue {
  text: string;
  earliest?: string;
  latest?: string;
  year?: number;
}

export interface EventSummary {
  date: DateValue | null;
  place: string;
}

export type Sex = "M" | "F" | "X" | "U";

export interface PersonSummary {
  id: string;
  name: string;
  given: string;
  surname: string;
  sex: Sex;
  living: boolean;
  birth?: EventSummary | null;
  death?: EventSummary | null;
  pedigree?: string;
  family?: string;
}

export interface PersonName {
  full: string;
  given: string;
  surname: string;
  prefix?: string;
  suffix?: string;
  nickname?: string;
  type?: string;
}

export interface PersonEvent {
  tag: string;
  label: string;
  type?: string;
  value?: string;
  date: DateValue | null;
  place: string;
  age?: string;
  cause?: string;
  notes?: string[];
  /** Its place in the person's timeline, own and family events together. */
  position: number;
}

export interface Source {
  id: string;
  title: string;
  author?: string;
  publication?: string;
  page?: string;
  text?: string;
}

export interface Media {
  file: string;
  format?: string;
  title?: string;
  url?: string;
}

export interface Person extends PersonSummary {
  tree: { slug: string; title: string };
  names: PersonName[];
  events: PersonEvent[];
  parents: { family: string; pedigree: string; partners: PersonSummary[] }[];
  siblings: PersonSummary[];
  families: { id: string; partner: PersonSummary | null; events: PersonEvent[]; children: PersonSummary[] }[];
  sources: Source[];
  notes: string[];
  media: Media[];
  can_manage?: boolean;
  /** Lists cut from this answer (the API bounds it): their full length and next page. */
  more: Partial<Record<PersonList, { total: number; next: string }>>;
  /** Texts or inner lists were cut to keep the answer bounded. */
  truncated: boolean;
}

/** The lists of a Person that the API gives in pages (docs/trees.md). */
export type PersonList = "names" | "events" | "parents" | "siblings" | "families" | "sources" | "notes" | "media";

export interface PeoplePage {
  total: number;
  offset: number;
  limit: number;
  results: PersonSummary[];
}

export interface Surname {
  surname: string;
  count: number;
}

/** topola's JsonGedcomData plus the fields docs/trees.md adds. */
export interface GraphDate {
  day?: number;
  month?: number;
  year?: number;
  text?: string;
  qualifier?: string;
}

export interface GraphIndi {
  id: string;
  firstName?: string;
  lastName?: string;
  name?: string;
  sex?: string;
  living?: boolean;
  famc?: string;
  fams?: string[];
  birth?: { date?: GraphDate; place?: string };
  death?: { date?: GraphDate; place?: string };
}

export interface GraphFam {
  id: string;
  husb?: string;
  wife?: string;
  children?: string[];
}

export interface Graph {
  start: string;
  kind: string;
  generations: number;
  truncated: boolean;
  indis: GraphIndi[];
  fams: GraphFam[];
}

export interface PedigreeSearchAnswer {
  total: number;
  offset: number;
  limit: number;
  trees: { slug: string; title: string; matches: number }[];
  results: { tree: { slug: string; title: string }; person: PersonSummary }[];
}

export const SURNAME_MODE_OPTIONS = surnameModeOptions({
  variants: "Variants (spelling variants)",
  exact: "Exact",
  soundex: "Soundex",
  phonetic: "Phonetic (Daitch–Mokotoff and Metaphone)",
  wildcard: "Wildcard (* and ?)",
});
export const YEAR_RANGES = [0, 1, 2, 5, 10, 20, 40] as const;
