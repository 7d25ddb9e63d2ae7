// The mapping editor's form, both ways: an ingest Mapping (internal/research/ingest) as
// one row per canonical field (a column of the file, a value for every row, or a setting
// the editor cannot show kept as it was), and the posted form back to a Mapping. The
// form works without JavaScript, so this runs in the action.
import type { FieldErrors } from "../../lib/form-result";
import type { CanonicalField, FieldSpec, Mapping, UploadColumn } from "./types";

/** The select's choice for "keep the saved setting" (several columns joined, values rewritten). */
export const KEEP = "__keep";

export interface MappingRow {
  field: CanonicalField;
  /** The chosen column, "" for none, or KEEP. */
  column: string;
  /** A value for every row (wins over the column when given). */
  value: string;
  /** The saved setting the form cannot show, as JSON, when column is KEEP. */
  kept: string;
}

export const columnName = (field: string) => `col.${field}`;
export const valueName = (field: string) => `value.${field}`;
export const keptName = (field: string) => `kept.${field}`;

/** The rows of the editor for a mapping (a proposal, a saved one, or the form's own values). */
export function mappingRows(canonical: readonly CanonicalField[], mapping: Mapping, values?: Record<string, string>): MappingRow[] {
  const persons = Boolean(mapping.persons?.length);
  return canonical
    .filter((field) => !persons || !PERSON_FIELDS.has(field.name))
    .map((field) => {
      if (values) {
        return { field, column: values[columnName(field.name)] ?? "", value: values[valueName(field.name)] ?? "", kept: values[keptName(field.name)] ?? "" };
      }
      const spec = mapping.fields?.[field.name];
      if (spec === undefined) return { field, column: "", value: "", kept: "" };
      if (typeof spec === "string") return { field, column: spec, value: "", kept: "" };
      const simple = Object.keys(spec).length === 1;
      if (simple && spec.column) return { field, column: spec.column, value: "", kept: "" };
      if (simple && spec.value !== undefined) return { field, column: "", value: spec.value, kept: "" };
      return { field, column: KEEP, value: "", kept: JSON.stringify(spec) };
    });
}

/** Fields that belong to each person, given in `persons` when a row holds a whole record. */
const PERSON_FIELDS = new Set(["role", "surname", "given_names", "sex", "age"]);

/** The samples of a column, as a short line ("Smith, Jones, Brown"). */
export function samplesText(columns: readonly UploadColumn[], name: string): string {
  return columns.find((c) => c.name === name)?.samples.slice(0, 3).join(", ") ?? "";
}

/**
 * The Mapping a posted editor describes, or the errors at its fields: a required field
 * needs a column or a value; a column must be one of the file's. `base` gives the
 * delimiter and any `persons` the editor does not show.
 */
export function mappingFromForm(
  form: FormData,
  canonical: readonly CanonicalField[],
  columns: readonly UploadColumn[],
  base: Mapping,
): { mapping: Mapping; errors: FieldErrors; values: Record<string, string> } {
  const get = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  const persons = Boolean(base.persons?.length);
  const fields: Record<string, FieldSpec> = {};
  const errors: FieldErrors = {};
  const values: Record<string, string> = {};
  const known = new Set(columns.map((c) => c.name));
  for (const field of canonical) {
    if (persons && PERSON_FIELDS.has(field.name)) continue;
    const column = get(columnName(field.name));
    const value = get(valueName(field.name)).trim();
    const kept = get(keptName(field.name));
    values[columnName(field.name)] = column;
    values[valueName(field.name)] = value;
    if (kept) values[keptName(field.name)] = kept;
    if (value) {
      fields[field.name] = { value };
    } else if (column === KEEP && kept) {
      try {
        fields[field.name] = JSON.parse(kept) as FieldSpec;
      } catch {
        errors[columnName(field.name)] = [`Choose the column for “${field.label}” again.`];
      }
    } else if (column && column !== KEEP) {
      if (known.has(column)) fields[field.name] = column;
      else errors[columnName(field.name)] = [`The file has no column called “${column}”.`];
    } else if (field.required) {
      errors[columnName(field.name)] = [`Choose the column that holds “${field.label}”, or type one value for every row.`];
    }
  }
  const mapping: Mapping = { fields };
  if (base.delimiter) mapping.delimiter = base.delimiter;
  if (persons) mapping.persons = base.persons;
  return { mapping, errors, values };
}
