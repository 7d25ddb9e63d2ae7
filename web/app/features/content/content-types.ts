// TypeScript shapes of the content model (docs/decisions/001, "Content model").
import type {
  AnyRegularField,
  AnySlicePrimaryField,
  ContentRelationshipField,
  DateField,
  EmbedField,
  ImageField,
  KeyTextField,
  LinkField,
  PrismicDocument,
  RichTextField,
  SharedSlice,
  SharedSliceVariation,
  SliceZone,
  TimestampField,
} from "@prismicio/client";

type Variation<
  Primary extends Record<string, AnySlicePrimaryField>,
  Item extends Record<string, AnyRegularField> = Record<string, never>,
> =
  SharedSliceVariation<"default", Primary, Item>;

export type RichTextSlice = SharedSlice<"rich_text", Variation<{ content: RichTextField }>>;

export type HeroSlice = SharedSlice<
  "hero",
  Variation<{
    title: RichTextField;
    text: RichTextField;
    image: ImageField;
    link: LinkField;
    link_label: KeyTextField;
  }>
>;

export type GallerySlice = SharedSlice<
  "gallery",
  Variation<{ title: KeyTextField }, { image: ImageField; caption: KeyTextField }>
>;

export type VideoSlice = SharedSlice<"video", Variation<{ title: KeyTextField; video: EmbedField }>>;

export type GridSlice = SharedSlice<
  "grid",
  Variation<{ title: KeyTextField }, { title: KeyTextField; text: RichTextField; image: ImageField; link: LinkField }>
>;

export type BodySlice = RichTextSlice | HeroSlice | GallerySlice | VideoSlice | GridSlice;
export type Body = SliceZone<BodySlice>;

export type HomeDocument = PrismicDocument<{ title: RichTextField; intro: RichTextField; body: Body }, "home">;

export type NewsItemDocument = PrismicDocument<
  { title: RichTextField; summary: RichTextField; date: DateField; image: ImageField; body: Body },
  "news_item"
>;

export type FeatureItemDocument = PrismicDocument<
  { title: RichTextField; summary: RichTextField; image: ImageField; body: Body },
  "feature_item"
>;

export type EventDocument = PrismicDocument<
  {
    title: RichTextField;
    summary: RichTextField;
    start: TimestampField;
    end: TimestampField;
    location: KeyTextField;
    body: Body;
  },
  "event"
>;

export type PageDocument = PrismicDocument<
  { title: RichTextField; description: KeyTextField; parent: ContentRelationshipField<"page">; body: Body },
  "page"
>;

export type CustomTypeName = "fhwuifhe" | "cwbhvwt" | "dheyenbvu";

export type CustomTypeDocument = PrismicDocument<
  { title: RichTextField; summary: RichTextField; body: Body },
  CustomTypeName
>;

/** A document as listed on cards: the fields every listed type shares. */
export type ListedDocument = NewsItemDocument | FeatureItemDocument | EventDocument | CustomTypeDocument;
