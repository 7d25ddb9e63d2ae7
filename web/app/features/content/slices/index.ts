import type { SliceZoneProps } from "@prismicio/react";
import { GallerySlice } from "./GallerySlice";
import { GridSlice } from "./GridSlice";
import { HeroSlice } from "./HeroSlice";
import { NewsletterSignupSlice } from "./NewsletterSignupSlice";
import { RichTextSlice } from "./RichTextSlice";
import { VideoSlice } from "./VideoSlice";

/** The block types a page body may hold, by `slice_type` (docs/decisions/001). */
export const sliceComponents = {
  rich_text: RichTextSlice,
  hero: HeroSlice,
  gallery: GallerySlice,
  video: VideoSlice,
  grid: GridSlice,
  newsletter_signup: NewsletterSignupSlice,
} as SliceZoneProps["components"];
