// A record's page: what it is, when and where, the persons with their roles, the
// transcript, the source, its collection and its images. Members-only records seen
// by visitors show the teaser the API sends (a name, the year, the collection) and an
// invitation to join; the page never expects the withheld fields.
import type { ReactNode } from "react";
import { Link } from "react-router";
import { signInPath } from "../../auth";
import { JOIN_OR_RENEW, subscribePath } from "../../membership";
import { collectionPath } from "../collections/model";
import { isoDateText, personName, recordPath, roleLabel } from "./query";
import type { ResearchRecord } from "./types";
import styles from "./search.module.css";
import { TableHead } from "../../../components/TableHead";

export const REGISTER_PATH = "/register";

/** The record's title: "Baptism: Mabel Smith, 1612". */
export function recordTitle(record: Pick<ResearchRecord, "record_type_label" | "persons" | "year">): string {
  const first = record.persons[0];
  const name = first ? personName(first) : "";
  return [record.record_type_label, name && `: ${name}`, record.year ? `, ${record.year}` : ""].join("");
}

/** The record's image references as a list (the image viewer replaces this when it arrives). */
export function RecordImages({ images }: { images: string[] }) {
  if (!images.length) return null;
  return (
    <section aria-labelledby="record-images" className={styles.images}>
      <h2 id="record-images">Images</h2>
      <ul>
        {images.map((image) => (
          <li key={image}>{/^https?:\/\//i.test(image) ? <a href={image}>{image}</a> : <span>{image}</span>}</li>
        ))}
      </ul>
    </section>
  );
}

function JoinInvitation({ record }: { record: ResearchRecord }) {
  return (
    <section className={styles.invitation} aria-labelledby="record-join">
      <h2 id="record-join">Join to see the whole record</h2>
      <p>
        This record, in “{record.collection.title}”, is for members of the society. Members see every name, the date, the
        place, the transcript, the source and the images.
      </p>
      <p className={styles.paging}>
        <Link to={subscribePath(recordPath(record.id))} className="button button--primary">
          {JOIN_OR_RENEW}
        </Link>
        <Link to={REGISTER_PATH} className="button">
          Create an account
        </Link>
      </p>
      <p>
        Already a member? <Link to={signInPath(recordPath(record.id))}>Sign in to see this record</Link>.
      </p>
    </section>
  );
}

export interface RecordViewProps {
  record: ResearchRecord;
  /** The bookmark toggle (or nothing). */
  bookmark?: ReactNode;
  /** What shows the images: the list of references unless the image viewer is given. */
  images?: ReactNode;
}

export function RecordView({ record, bookmark, images }: RecordViewProps) {
  const title = recordTitle(record);
  return (
    <article>
      <h1>{title}</h1>
      {record.teaser ? <p className={styles.membersOnly}>Members only</p> : null}
      {bookmark}
      <dl className={styles.facts}>
        <dt>Record type</dt>
        <dd>{record.record_type_label}</dd>
        {record.teaser ? (
          <>
            <dt>Name</dt>
            <dd>{record.persons[0] ? personName(record.persons[0]) : "—"}</dd>
            <dt>Year</dt>
            <dd>{record.year ?? "—"}</dd>
          </>
        ) : (
          <>
            <dt>Date</dt>
            <dd>
              {record.date || "Not recorded"}
              {record.date_range && record.date_range.earliest !== record.date_range.latest ? (
                <>
                  {" "}
                  <span className={styles.role}>
                    (between <time dateTime={record.date_range.earliest}>{isoDateText(record.date_range.earliest)}</time> and{" "}
                    <time dateTime={record.date_range.latest}>{isoDateText(record.date_range.latest)}</time>)
                  </span>
                </>
              ) : null}
            </dd>
            <dt>Place</dt>
            <dd>
              {record.place ? (
                <>
                  {record.place.text}
                  {record.place.path && record.place.path !== record.place.text ? (
                    <span className={styles.role}> ({record.place.path})</span>
                  ) : null}
                </>
              ) : (
                "Not recorded"
              )}
            </dd>
          </>
        )}
        <dt>Collection</dt>
        <dd>
          <Link to={collectionPath(record.collection)}>{record.collection.title}</Link>
        </dd>
        {record.teaser ? null : (
          <>
            <dt>Source</dt>
            <dd>{record.source || "Not recorded"}</dd>
            {record.key ? (
              <>
                <dt>Reference</dt>
                <dd>{record.key}</dd>
              </>
            ) : null}
          </>
        )}
      </dl>

      {record.teaser ? (
        <JoinInvitation record={record} />
      ) : (
        <>
          <section aria-labelledby="record-persons">
            <h2 id="record-persons">People in this record</h2>
            <div className={styles.tableWrap} role="region" aria-labelledby="record-persons" tabIndex={0}>
              <table className={styles.table}>
                <TableHead columns={["Name", "Role", "Sex", "Age"]} />
                <tbody>
                  {record.persons.map((person, i) => (
                    <tr key={i}>
                      <td>{personName(person)}</td>
                      <td>{roleLabel(person.role)}</td>
                      <td>{person.sex === "M" ? "Male" : person.sex === "F" ? "Female" : "—"}</td>
                      <td>{person.age || "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
          {record.transcript ? (
            <section aria-labelledby="record-transcript">
              <h2 id="record-transcript">Transcript</h2>
              <p className={styles.transcript}>{record.transcript}</p>
            </section>
          ) : null}
          {images ?? <RecordImages images={record.images} />}
        </>
      )}
    </article>
  );
}
