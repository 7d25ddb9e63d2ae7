// The data of a "Scans" section (ItemScans), serialisable from a loader.
import type { ViewerData } from "./images.server";

export interface ScanItemSummary {
  slug: string;
  label: string;
  pages: number;
  /** The item's access level (lib/access-level.ts). */
  access: string;
  allowed: boolean;
  viewer: string;
}

export interface ScansData {
  items: ScanItemSummary[];
  /** The viewer's data of the first item the visitor may see, with its viewer page's path. */
  viewer: (ViewerData & { slug: string; path: string }) | null;
  signedIn: boolean;
}
