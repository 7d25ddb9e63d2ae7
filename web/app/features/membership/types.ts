// The membership API's JSON (docs/membership.md; internal/membership/types.go).

export interface Concession {
  slug: string;
  name: string;
  price_minor: number;
}

export interface Plan {
  id: number;
  slug: string;
  name: string;
  price_minor: number;
  currency: string;
  period: "annual" | "monthly" | "lifetime" | "fixed" | string;
  renew_month: number;
  renew_day: number;
  benefits: string;
  scopes: string[];
  household_size: number;
  concessions: Concession[];
  on_sale: boolean;
  grace_days: number;
}

export interface PlanList {
  plans: Plan[];
  card_payments: boolean;
  other_ways: string;
}

export interface GiftAidDeclaration {
  id: number;
  title: string;
  first_name: string;
  last_name: string;
  house: string;
  postcode: string;
  address: string;
  wording: string;
  declared_at: string;
  covers_from: string;
  cancelled_at: string | null;
}

/** GET /api/membership/gift-aid: the wording a declaration agrees to, and the member's. */
export interface GiftAid {
  wording: string;
  declaration: GiftAidDeclaration | null;
}

export interface HouseholdMember {
  user_id: number | null;
  name: string;
  email: string;
  status: "invited" | "joined" | string;
}

export interface Membership {
  id: number;
  number: string;
  user_id?: number | null;
  plan: Plan;
  concession: string;
  status: string;
  method: string;
  started_at: string;
  paid_until: string | null;
  grace_days: number;
  auto_renew: boolean;
  household: HouseholdMember[] | null;
  scopes: string[] | null;
  name?: string;
  email?: string;
}

export interface Receipt {
  id: number;
  number: string;
  amount_minor: number;
  currency: string;
  method: string;
  note: string;
  paid_at: string;
  covers_until: string | null;
  refunded_minor: number;
}

export interface MyMembership {
  membership: Membership | null;
  receipts: Receipt[];
  /** The newest answer to the news-by-email consent, kept apart from the membership; null: never asked. */
  marketing_consent?: { given: boolean; at: string; wording: string; source: string } | null;
  /** The consent's words as the pages show them now. */
  marketing_wording?: string;
}

export interface HistoryRow {
  at: string;
  by: string;
  from: string;
  to: string;
  why: string;
}

export interface MemberDetail extends Membership {
  history: HistoryRow[] | null;
  payments: Receipt[] | null;
}

export interface MemberList {
  members: Membership[] | null;
  total: number;
}

export interface ImportReport {
  would_add: number;
  would_update: number;
  imported?: boolean;
  errors: { line: number; column: string | number; message: string }[] | null;
}

/** Statuses in which a membership opens what its plan grants. */
export const GRANTING_STATUSES: readonly string[] = ["active", "grace", "complimentary", "lifetime"];

/** Every status, for the admins' search filter. */
export const STATUSES: readonly string[] = ["pending", "active", "grace", "lapsed", "cancelled", "complimentary", "lifetime"];
