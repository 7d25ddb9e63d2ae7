// The document types' models as the Go API sends them: Prismic custom-type JSON (the
// shape of Prismic's Custom Types API), read into the list of fields the editor's form
// is generated from. Unknown field types are kept and shown as JSON, never dropped.

export interface CustomType {
  id: string;
  /** "file": the repository's model; "custom": an admin's stored copy. */
  source?: string;
  label?: string;
  repeatable?: boolean;
  status?: boolean;
  /** Tabs → field id → field model. */
  json: Record<string, Record<string, FieldModel>>;
}

export interface FieldModel {
  type: string;
  fieldset?: string;
  config?: FieldConfig;
  /** Legacy slices: the slice's fields once, and its repeated items' fields. */
  "non-repeat"?: Record<string, FieldModel>;
  repeat?: Record<string, FieldModel>;
  description?: string;
}

export interface FieldConfig {
  label?: string;
  placeholder?: string;
  /** StructuredText: the block types allowed, comma-separated; `single` allows one block. */
  single?: string;
  multi?: string;
  allowTargetBlank?: boolean;
  /** Link: "document", "web", "media" or absent (any). */
  select?: string | null;
  customtypes?: string[];
  options?: string[];
  default_value?: string;
  fields?: Record<string, FieldModel>;
  choices?: Record<string, FieldModel>;
  /** Marks a field the API requires (the studio's own addition to Prismic's shape). */
  required?: boolean;
  constraint?: { width?: number | null; height?: number | null };
}

/** One tab's fields in model order. */
export interface Field {
  id: string;
  model: FieldModel;
}

export interface Tab {
  name: string;
  fields: Field[];
}

/** The tabs of a type, with the uid field taken out (the editor shows it on its own). */
export function tabsOf(type: CustomType): Tab[] {
  return Object.entries(type.json ?? {}).map(([name, fields]) => ({
    name,
    fields: Object.entries(fields ?? {})
      .filter(([, model]) => model?.type !== "UID")
      .map(([id, model]) => ({ id, model })),
  }));
}

/** Whether the type has a uid (its documents have an address of their own). */
export function hasUid(type: CustomType): boolean {
  return Object.values(type.json ?? {}).some((fields) => Object.values(fields ?? {}).some((f) => f?.type === "UID"));
}

/** The label a field is shown with: the model's, else its id in words. */
export function labelOf(id: string, model: FieldModel): string {
  const label = model.config?.label?.trim();
  if (label) return label;
  const words = id.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The type's name for people. */
export function typeLabel(type: Pick<CustomType, "id" | "label">): string {
  return type.label?.trim() || labelOf(type.id, { type: "" });
}

export const ALL_BLOCKS = [
  "paragraph",
  "heading1",
  "heading2",
  "heading3",
  "heading4",
  "heading5",
  "heading6",
  "list-item",
  "o-list-item",
  "preformatted",
  "image",
  "embed",
] as const;
export type BlockType = (typeof ALL_BLOCKS)[number];

export const SPAN_TYPES = ["strong", "em", "hyperlink"] as const;

/** What a StructuredText field allows: its block types, and whether only one block. */
export function richTextRules(model: FieldModel): { blocks: BlockType[]; single: boolean; spans: string[] } {
  const single = typeof model.config?.single === "string";
  const list = (model.config?.single ?? model.config?.multi ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const blocks = ALL_BLOCKS.filter((b) => list.includes(b));
  const spans = SPAN_TYPES.filter((s) => list.length === 0 || list.includes(s));
  return { blocks: blocks.length ? blocks : [...ALL_BLOCKS], single, spans: [...spans] };
}

/** A shared slice's model (Prismic's shape): its variations' fields once and repeated. */
export interface SliceModel {
  id: string;
  type?: string;
  name?: string;
  description?: string;
  variations?: { id: string; name?: string; primary?: Record<string, FieldModel>; items?: Record<string, FieldModel> }[];
}

/** The slices a slice zone offers: id → its label and its two field sets. */
export interface SliceChoice {
  id: string;
  label: string;
  description: string;
  primary: Field[];
  items: Field[];
}

const fieldsOf = (fields: Record<string, FieldModel> | undefined): Field[] => Object.entries(fields ?? {}).map(([id, model]) => ({ id, model }));

/**
 * The slices a slice zone offers, in the zone's order: shared slices from `slices`
 * (their default variation), legacy slices from the choice itself.
 */
export function sliceChoices(model: FieldModel, slices: readonly SliceModel[]): SliceChoice[] {
  return Object.entries(model.config?.choices ?? {}).map(([id, choice]) => {
    const shared = slices.find((s) => s.id === id);
    if (shared) {
      const variation = shared.variations?.find((v) => v.id === "default") ?? shared.variations?.[0];
      return {
        id,
        label: shared.name?.trim() || labelOf(id, choice),
        description: shared.description ?? "",
        primary: fieldsOf(variation?.primary),
        items: fieldsOf(variation?.items),
      };
    }
    return {
      id,
      label: choice.fieldset?.trim() || labelOf(id, choice),
      description: choice.description ?? "",
      primary: fieldsOf(choice["non-repeat"]),
      items: fieldsOf(choice.repeat),
    };
  });
}

/** The value a new, empty field starts with (what Prismic's API gives for an empty field). */
export function emptyValue(model: FieldModel): unknown {
  switch (model.type) {
    case "StructuredText":
      return [];
    case "Link":
      return { link_type: "Any" };
    case "Image":
    case "Embed":
    case "GeoPoint":
      return {};
    case "Group":
      return [];
    case "Slices":
      return [];
    case "Boolean":
      return model.config?.default_value === "true";
    case "Select":
      return model.config?.default_value ?? null;
    default:
      return null;
  }
}

/** A document's data with every field of the type present (absent ones empty). */
export function withAllFields(type: CustomType, data: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(data ?? {}) };
  for (const tab of tabsOf(type)) {
    for (const { id, model } of tab.fields) if (!(id in out)) out[id] = emptyValue(model);
  }
  return out;
}

/** A new slice of a choice: its primary fields empty, no items. */
export function newSlice(choice: SliceChoice, key: string): Record<string, unknown> {
  const primary: Record<string, unknown> = {};
  for (const f of choice.primary) primary[f.id] = emptyValue(f.model);
  return { slice_type: choice.id, slice_label: null, id: `${choice.id}$${key}`, variation: "default", version: "initial", primary, items: [] };
}

/** A new repeated item: every field empty. */
export function newItem(fields: Field[]): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const f of fields) item[f.id] = emptyValue(f.model);
  return item;
}
