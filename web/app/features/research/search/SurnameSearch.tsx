// The surname search box: a surname, optional given names and a year, searched with
// known variant spellings. A plain GET form to the search page, so it works without
// JavaScript; with JavaScript React Router navigates there. Used on the home page
// and on the research hub's pages.
import { Form } from "react-router";
import { DEFAULT_SURNAME_MODE } from "../../../lib/vocabulary";
import { SEARCH_PATH } from "./paths";
import styles from "./search.module.css";

export interface SurnameSearchProps {
  /** Ids of the fields are prefixed with this, for pages with more than one box. */
  idPrefix?: string;
  /** The box's heading; none when empty. */
  title?: string;
  headingLevel?: 2 | 3;
  /** Values to start with (the search being shown, say). */
  defaults?: { surname?: string; given?: string; year?: string };
}

export function SurnameSearch({ idPrefix = "surname-search", title = "Search for an ancestor", headingLevel = 2, defaults = {} }: SurnameSearchProps) {
  const Heading = headingLevel === 3 ? "h3" : "h2";
  const headingId = `${idPrefix}-title`;
  return (
    <Form
      method="get"
      action={SEARCH_PATH}
      className={styles.surnameBox}
      role="search"
      aria-labelledby={title ? headingId : undefined}
      aria-label={title ? undefined : "Surname search"}
      key={`${defaults.surname ?? ""}|${defaults.given ?? ""}|${defaults.year ?? ""}`}
    >
      {title ? (
        <Heading id={headingId} className={styles.surnameTitle}>
          {title}
        </Heading>
      ) : null}
      <p className={styles.hint}>Finds spelling variants too: Smith also finds Smyth and Smythe.</p>
      <div className={styles.surnameFields}>
        <div className={styles.field}>
          <label htmlFor={`${idPrefix}-surname`}>Surname</label>
          <input
            id={`${idPrefix}-surname`}
            name="surname"
            type="text"
            required
            maxLength={200}
            autoComplete="off"
            spellCheck={false}
            defaultValue={defaults.surname ?? ""}
            className={styles.input}
          />
        </div>
        <div className={styles.field}>
          <label htmlFor={`${idPrefix}-given`}>
            Given names <span className={styles.optional}>(optional)</span>
          </label>
          <input
            id={`${idPrefix}-given`}
            name="given"
            type="text"
            maxLength={200}
            autoComplete="off"
            spellCheck={false}
            defaultValue={defaults.given ?? ""}
            className={styles.input}
          />
        </div>
        <div className={`${styles.field} ${styles.fieldNarrow}`}>
          <label htmlFor={`${idPrefix}-year`}>
            Year <span className={styles.optional}>(optional, ± 2)</span>
          </label>
          <input
            id={`${idPrefix}-year`}
            name="year"
            type="text"
            inputMode="numeric"
            pattern="[0-9]{1,4}"
            maxLength={4}
            autoComplete="off"
            defaultValue={defaults.year ?? ""}
            className={styles.input}
          />
        </div>
        <input type="hidden" name="surname_mode" value={DEFAULT_SURNAME_MODE} />
        <input type="hidden" name="year_pm" value="2" />
        <div className={styles.surnameSubmit}>
          <button type="submit" className="button button--primary">
            Search records
          </button>
        </div>
      </div>
    </Form>
  );
}
