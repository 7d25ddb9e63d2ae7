// The newsletter API's answers (docs/newsletter.md, "JSON API"): lists, a subscriber's
// preferences, alerts of saved searches, editions for editors and the public archive.

export interface NewsletterList {
  slug: string;
  name: string;
  description: string;
  /** "members" lists need `scope` among the signed-in user's scopes. */
  audience: "public" | "members";
  scope: string;
  /** Only on answers about one person (preferences, the account's own). */
  subscribed?: boolean;
}

/** What a subscriber sees on the preferences page, and a member in the account area. */
export interface Preferences {
  email: string;
  lists: NewsletterList[];
  preferences_token?: string;
}

export interface Confirmation {
  email: string;
  lists: NewsletterList[];
  preferences_token: string;
}

/** How often a saved search's alert emails; "off" is no alert at all. */
export type AlertFrequency = "immediately" | "daily" | "weekly";

export interface Alert {
  saved_search_id: number;
  frequency: AlertFrequency;
  created_at: string;
  last_sent_at: string | null;
}

export type EditionStatus = "draft" | "scheduled" | "sending" | "sent";

/** Sections the API adds after the document's own text. */
export type EditionSection = "news" | "events" | "collections";

export interface EditionCounts {
  recipients: number;
  queued: number;
  sent: number;
  failed: number;
  /** Members' list: accounts that no longer held its scope when it was sent. */
  skipped?: number;
}

export interface Edition {
  id: number;
  list: string;
  document: string;
  subject: string;
  sections: EditionSection[];
  status: EditionStatus;
  scheduled_at: string | null;
  sent_at: string | null;
  public: boolean;
  counts: EditionCounts;
}

export interface EditionPreview {
  subject: string;
  html: string;
  text: string;
}

export interface NewsletterDocument {
  uid: string;
  title: string;
}

export interface Recipient {
  email: string;
  status: "queued" | "sent" | "failed";
  error?: string;
}

/** An edition in the public archive's list. */
export interface ArchivedEditionSummary {
  id: number;
  list: string;
  list_name: string;
  subject: string;
  sent_at: string;
  summary: string;
}

/** One edition of the public archive, as mailed (without personal links). */
export interface ArchivedEdition {
  id: number;
  list: string;
  list_name: string;
  subject: string;
  sent_at: string;
  html: string;
  text: string;
}
