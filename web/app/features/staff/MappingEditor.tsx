// The mapping editor: one row per canonical field of the research records (their
// labels come from the API), each with a select of the file's columns — their first
// values shown beside each name — and a box for one value that every line shares (a
// register's record type, say). A plain form part: it works without JavaScript, and an
// error is written next to its field and tied to its control.
import { ErrorText, fieldId, formStyles } from "../../components/forms/Forms";
import type { FieldErrors } from "../../lib/form-result";
import { columnName, KEEP, keptName, type MappingRow, valueName } from "./mapping";
import type { UploadColumn } from "./types";
import styles from "./staff.module.css";

export const MAPPING_ID_PREFIX = "map";

function optionText(column: UploadColumn): string {
  const samples = column.samples.filter(Boolean).slice(0, 3);
  return samples.length ? `${column.name} (such as ${samples.join(", ")})` : `${column.name} (empty in the first lines)`;
}

export function MappingEditor({ rows, columns, errors }: { rows: MappingRow[]; columns: UploadColumn[]; errors: FieldErrors }) {
  return (
    <ul className={styles.mapping}>
      {rows.map(({ field, column, value, kept }) => {
        const id = fieldId(columnName(field.name), MAPPING_ID_PREFIX);
        const valueId = fieldId(valueName(field.name), MAPPING_ID_PREFIX);
        const error = errors[columnName(field.name)];
        const errorId = error?.length ? `${id}-error` : undefined;
        const chosen = column && column !== KEEP ? columns.find((c) => c.name === column) : undefined;
        return (
          <li key={field.name} className={error?.length ? formStyles.fieldError : undefined}>
            <div>
              <label htmlFor={id} className={styles.column}>
                {field.label}
                <span className={styles.sample}>{field.required ? "Needed" : "Optional"}</span>
              </label>
            </div>
            <div>
              <ErrorText id={errorId} errors={error} />
              <select
                id={id}
                name={columnName(field.name)}
                defaultValue={chosen || column === KEEP ? column : ""}
                className={formStyles.input}
                aria-describedby={errorId}
                aria-invalid={errorId ? true : undefined}
              >
                <option value="">Not in this file</option>
                {kept ? <option value={KEEP}>As saved before (several columns)</option> : null}
                {columns.map((c) => (
                  <option key={c.name} value={c.name}>
                    {optionText(c)}
                  </option>
                ))}
              </select>
              {kept ? <input type="hidden" name={keptName(field.name)} value={kept} /> : null}
              <label htmlFor={valueId} className={styles.sample}>
                Or type one value for every line<span className="visually-hidden"> ({field.label})</span>
              </label>
              <input id={valueId} name={valueName(field.name)} defaultValue={value} className={formStyles.input} maxLength={200} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
