// The studio content API's answers (docs/content.md, "Studio"), as the screens read them.
import type { CustomType, SliceModel } from "./models";

export interface Person {
  id: number;
  name: string;
}

export type DocumentStatus = "draft" | "scheduled" | "published" | "archived";

export interface ReleaseRef {
  id: string;
  label: string;
  scheduled_at: string | null;
}

export interface StudioDocument {
  id: string;
  type: string;
  lang: string;
  uid: string | null;
  tags: string[];
  data: Record<string, unknown>;
  status: DocumentStatus;
  has_changes: boolean;
  revision: number;
  published: { uid: string | null; tags: string[]; data: Record<string, unknown> } | null;
  first_publication_date: string | null;
  last_publication_date: string | null;
  created_at: string;
  created_by: Person | null;
  updated_at: string;
  updated_by: Person | null;
  archived_at: string | null;
  releases: ReleaseRef[];
  url: string | null;
  problems: Record<string, string[]>;
}

export interface DocumentSummary {
  id: string;
  type: string;
  lang: string;
  uid: string | null;
  title: string;
  status: DocumentStatus;
  has_changes: boolean;
  revision: number;
  tags: string[];
  updated_at: string;
  updated_by: Person | null;
  first_publication_date: string | null;
  last_publication_date: string | null;
  archived_at: string | null;
  url: string | null;
}

export interface Page<T> {
  results: T[];
  page: number;
  page_size: number;
  total: number;
}

export interface Models {
  types: CustomType[];
  slices: SliceModel[];
}

export interface Version {
  id: number;
  revision: number;
  kind: string;
  author: Person | null;
  created_at: string;
}

export interface VersionDetail extends Version {
  uid?: string | null;
  /** Absent when the version had none. */
  tags?: string[];
  data?: Record<string, unknown>;
}

export interface LinkTarget {
  id: string;
  type: string;
  lang: string;
  uid: string | null;
  title: string;
  status: DocumentStatus;
  url: string | null;
}

export interface UidCheck {
  uid: string;
  valid: boolean;
  available: boolean;
  message?: string;
}

export interface Release {
  id: string;
  label: string;
  status: "open" | "scheduled" | "published" | "failed";
  scheduled_at: string | null;
  published_at: string | null;
  /** Why publishing it failed (status "failed"). */
  error?: string | null;
  created_at: string;
  created_by: Person | null;
  documents?: { id: string; type: string; uid: string | null; title: string; status: DocumentStatus }[];
}

export interface Media {
  id: string;
  name: string;
  url: string;
  content_type: string;
  bytes: number;
  width: number;
  height: number;
  alt: string;
  copyright: string | null;
  variants: { width: number; height: number; url: string }[];
  created_at: string;
  created_by: Person | null;
}

/** The image field's value for a picture of the library (the API's own recipe). */
export function imageValue(m: Media): Record<string, unknown> {
  return {
    id: m.id,
    url: m.url,
    alt: m.alt,
    copyright: m.copyright,
    dimensions: { width: m.width, height: m.height },
    edit: { x: 0, y: 0, zoom: 1, background: "transparent" },
  };
}

export interface WebhookDelivery {
  id: number;
  url: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  next_at: string | null;
  last_error: string;
  created_at: string;
}
