// The staff tools API's objects (docs/studio-staff.md): accounts, the audit log, records
// uploads and their mappings, dry runs, background jobs, and the trees' queue.

export interface Person {
  id: number;
  name: string;
  email: string;
  role: string;
  disabled: boolean;
  disabled_at: string | null;
  email_verified: boolean;
  created_at: string;
  /** The latest activity of any of its sessions; null when it has none. */
  last_seen_at: string | null;
}

export interface PeoplePage {
  people: Person[];
  total: number;
  offset: number;
  limit: number;
  /** The roles an account may have, in the API's order. */
  roles: string[];
}

export interface AuditEntry {
  id: number;
  at: string;
  actor: { id: number; name: string; email: string } | null;
  actor_id?: number;
  action: string;
  subject: string;
  summary: string;
  before: unknown;
  after: unknown;
}

export interface AuditPage {
  entries: AuditEntry[];
  next_before: number | null;
  actions: string[];
}

/** Where a canonical field's value comes from (internal/research/ingest FieldSpec). */
export type FieldSpec =
  | string
  | { column?: string; columns?: string[]; join?: string; value?: string; default?: string; map?: Record<string, string> };

/** An ingest Mapping (docs/research.md, "Mappings"). */
export interface Mapping {
  delimiter?: string;
  fields?: Record<string, FieldSpec>;
  persons?: Record<string, FieldSpec>[];
}

export interface CanonicalField {
  name: string;
  required: boolean;
  label: string;
}

export interface UploadColumn {
  name: string;
  samples: string[];
}

export interface RecordsUpload {
  id: string;
  filename: string;
  bytes: number;
  rows: number;
  delimiter: string;
  created_at: string;
  imported: boolean;
  columns: UploadColumn[];
  proposed: {
    mapping: Mapping;
    matched: Record<string, string>;
    missing: string[];
    from_saved: string | null;
  };
  canonical: CanonicalField[];
}

export interface SavedMapping {
  name: string;
  mapping: Mapping;
  columns: string[];
  updated_at: string;
  updated_by: { id: number; name: string } | null;
}

export interface LineMessage {
  line: number;
  record?: string;
  message: string;
}

export interface SamplePerson {
  role: string;
  surname: string;
  given_names: string;
  sex: string;
  age: string;
}

export interface SampleRecord {
  line: number;
  record_id: string;
  record_type: string;
  date: string;
  place: string;
  transcript: string;
  source: string;
  access: string;
  images: string[];
  persons: SamplePerson[];
}

export interface DryRun {
  records: number;
  good: number;
  skipped: number;
  collection_exists: boolean;
  /** Good records whose record_id is not in the collection yet; null without a collection. */
  new: number | null;
  /** Good records already in the collection (updated where they differ); null without a collection. */
  existing: number | null;
  warning_count: number;
  warnings: LineMessage[];
  notes: LineMessage[];
  sample: SampleRecord[];
}

/** `undoing`: it stopped and is taking back what it wrote, then `failed` or `canceled`. */
export type JobState = "queued" | "running" | "undoing" | "done" | "failed" | "canceled";

export interface JobProgress {
  done: number;
  total: number;
  percent: number;
  added?: number;
  updated?: number;
  unchanged?: number;
  skipped?: number;
  current?: string;
}

export interface RecordsReport {
  records: number;
  added: number;
  updated: number;
  unchanged: number;
  skipped: number;
  error_count: number;
  errors?: LineMessage[];
  collection: string;
  collection_created: boolean;
}

export interface ScansReport {
  scans: number;
  cut: number;
  unchanged: number;
  /** The scans made, each with its IIIF item id. */
  items?: { file: string; id: string }[];
}

export interface Job {
  id: number;
  kind: "records" | "scans";
  state: JobState;
  created_at: string;
  updated_at: string;
  started_by: { id: number; name: string } | null;
  collection?: string;
  upload_id?: string;
  progress: JobProgress | null;
  report: (RecordsReport & ScansReport) | null;
  error: string | null;
}

export interface QueueTree {
  slug: string;
  title: string;
  published: boolean;
  owner: { id: number; name: string } | null;
  source_file?: string;
  counts: { people: number; families: number; events: number; sources: number; notes?: number; media?: number };
  living: number;
  warning_count: number | null;
  warnings?: string[];
  created_at: string;
  published_at: string | null;
  access?: string;
}

export interface TreeQueue {
  trees: QueueTree[];
  counts: { waiting: number; published: number };
}
