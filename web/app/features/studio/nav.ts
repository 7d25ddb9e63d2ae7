// The studio's navigation (/studio and its screens). Each area adds its row here;
// the layout (routes/studio.tsx) shows the rows the signed-in user may use.

export interface StudioNavItem {
  /** Where the link goes; a child of /studio. */
  to: string;
  /** The link's words: plain, short. */
  label: string;
  /** True for screens only admins may use; the rest are for editors and admins. */
  adminOnly?: boolean;
}

export const STUDIO_NAV: readonly StudioNavItem[] = [
  { to: "/studio", label: "Studio home" },
  { to: "/studio/content", label: "Content" },
  { to: "/studio/releases", label: "Releases" },
  { to: "/studio/media", label: "Pictures" },
  { to: "/studio/records", label: "Records" },
  { to: "/studio/scans", label: "Scans" },
  { to: "/studio/trees", label: "Family trees" },
  { to: "/studio/people", label: "People", adminOnly: true },
  { to: "/studio/audit", label: "Audit log", adminOnly: true },
  { to: "/studio/models", label: "Document types", adminOnly: true },
  { to: "/studio/webhooks", label: "Webhooks", adminOnly: true },
];

/** The rows a user sees: all of them for admins, the others' for editors. */
export function studioNavFor(admin: boolean, items: readonly StudioNavItem[] = STUDIO_NAV): StudioNavItem[] {
  return items.filter((item) => admin || !item.adminOnly);
}
