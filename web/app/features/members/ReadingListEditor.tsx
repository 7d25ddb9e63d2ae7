// A reading list's page: rename, its items in order (up/down buttons to reorder,
// remove), add a page (one of the bookmarks, or any address of the site), delete.
import { useEffect, useRef } from "react";
import { Link, useActionData } from "react-router";
import { Field, formStyles } from "../../components/forms/Forms";
import { formatDate } from "../../lib/dates";
import type { AccountResult } from "./account-actions.server";
import { ActionButton, ActionForm, buttonClass, FormError } from "./ActionForm";
import { Section, useSectionStatus } from "./Section";
import type { Bookmark, ReadingList, ReadingListItem } from "./types";
import styles from "./account.module.css";

function moveButtonId(item: ReadingListItem, direction: "up" | "down") {
  return `move-${direction}-${item.id}`;
}

/** After a move, keep focus on the moved item's button (or its other one at an end). */
function useFocusAfterMove(list: ReadingList, moved: AccountResult["moved"] | undefined) {
  const handled = useRef<AccountResult["moved"]>(undefined);
  useEffect(() => {
    if (!moved || handled.current === moved) return;
    const item = list.items.find((i) => i.id === moved.id);
    if (!item || list.items.indexOf(item) !== moved.position - 1) return; // not reloaded yet
    handled.current = moved;
    const preferred = document.getElementById(moveButtonId(item, moved.direction)) as HTMLButtonElement | null;
    const other = document.getElementById(moveButtonId(item, moved.direction === "up" ? "down" : "up")) as HTMLButtonElement | null;
    (preferred && !preferred.disabled ? preferred : other)?.focus();
  }, [list, moved]);
}

function Items({
  list,
  report,
  focusId,
}: {
  list: ReadingList;
  report: (r: AccountResult, o?: { refocus?: boolean }) => void;
  /** The button to focus when the page loads (after a move without JavaScript). */
  focusId?: string;
}) {
  const count = list.items.length;
  if (!count) return <p className={styles.empty}>This list is empty. Add a page below.</p>;
  return (
    <ol className={styles.items}>
      {list.items.map((item, index) => {
        const title = item.title || item.url;
        return (
          <li key={item.id} className={styles.item}>
            <div className={styles.itemMain}>
              <p className={styles.itemTitle}>
                <span className={styles.position} aria-hidden="true">
                  {index + 1}.
                </span>{" "}
                <Link to={item.url}>{title}</Link>
              </p>
              <p className={styles.meta}>Added {formatDate(item.created_at) ?? item.created_at}</p>
            </div>
            <div className={styles.controls}>
              {(["up", "down"] as const).map((direction) => (
                <ActionForm key={direction} intent="item-move" target={item.id} hidden={{ list: list.id, direction }} onResult={report} className={styles.controls}>
                  {({ busy }) => {
                    const atEnd = direction === "up" ? index === 0 : index === count - 1;
                    return (
                      <button
                        type="submit"
                        id={moveButtonId(item, direction)}
                        className={buttonClass}
                        disabled={busy || atEnd}
                        autoFocus={focusId === moveButtonId(item, direction)}
                        aria-label={`${direction === "up" ? "Move up" : "Move down"}: ${title}`}
                      >
                        {direction === "up" ? "Move up" : "Move down"}
                      </button>
                    );
                  }}
                </ActionForm>
              ))}
              <ActionButton intent="item-remove" target={item.id} hidden={{ list: list.id, title }} onResult={(r) => report(r, { refocus: true })} className={styles.controls}>
                Remove<span className="visually-hidden"> from the list: {title}</span>
              </ActionButton>
            </div>
          </li>
        );
      })}
    </ol>
  );
}

export function ReadingListEditor({ list, bookmarks, confirmDelete }: { list: ReadingList; bookmarks: Bookmark[]; confirmDelete: boolean }) {
  const items = useSectionStatus(["item-move", "item-remove", "list-add"], list.items);
  const settings = useSectionStatus(["list-rename"], list.name);
  const pageResult = useActionData() as AccountResult | undefined;
  const moved = (items.result?.intent === "item-move" ? items.result.moved : undefined) ?? (pageResult?.intent === "item-move" ? pageResult.moved : undefined);
  useFocusAfterMove(list, moved);
  // Without JavaScript the page comes back after a move: focus the moved item's button.
  let focusId: string | undefined;
  const pageMoved = pageResult?.intent === "item-move" ? pageResult.moved : undefined;
  if (pageMoved) {
    const index = list.items.findIndex((i) => i.id === pageMoved.id);
    const atEnd = pageMoved.direction === "up" ? index === 0 : index === list.items.length - 1;
    const direction = atEnd ? (pageMoved.direction === "up" ? "down" : "up") : pageMoved.direction;
    if (index >= 0) focusId = moveButtonId(list.items[index]!, direction);
  }
  const listed = new Set(list.items.map((i) => i.url));
  const candidates = bookmarks.filter((b) => !listed.has(b.url));

  return (
    <>
      <Section id="items" title="Pages in this list" result={items.result} headingRef={items.headingRef}>
        <Items list={list} report={items.report} focusId={focusId} />
        <h3>Add a page</h3>
        {candidates.length ? (
          <ActionForm intent="list-add" target="bookmark" hidden={{ list: list.id, target: "bookmark" }} onResult={items.report} className={styles.inline}>
            {({ result: r, busy }) => (
              <>
                <div>
                  <label htmlFor="add-bookmark">One of your bookmarks</label>
                  <select id="add-bookmark" name="bookmark" className={formStyles.input}>
                    {candidates.map((b) => (
                      <option key={b.id} value={b.id}>
                        {b.title || b.url}
                      </option>
                    ))}
                  </select>
                </div>
                <button type="submit" className={buttonClass} disabled={busy}>
                  Add to the list
                </button>
                <FormError result={r} />
              </>
            )}
          </ActionForm>
        ) : null}
        <ActionForm intent="list-add" target="address" hidden={{ list: list.id, target: "address" }} onResult={items.report} noValidate resetOnSuccess>
          {({ result: r, busy }) => (
            <>
              <Field
                name="url"
                idPrefix="add"
                label="Address of a page on this site"
                hint="For example /news/annual-meeting — the part of the address after the site’s name."
                spellCheck={false}
                defaultValue={r?.ok ? "" : r?.values?.url}
                errors={r?.errors?.url}
              />
              <Field name="title" idPrefix="add" label="Title (optional)" defaultValue={r?.ok ? "" : r?.values?.title} errors={r?.errors?.title} />
              <FormError result={r} />
              <button type="submit" className={buttonClass} disabled={busy}>
                Add the page
              </button>
            </>
          )}
        </ActionForm>
      </Section>

      <Section id="list-settings" title="Rename or delete the list" result={settings.result} headingRef={settings.headingRef}>
        <ActionForm intent="list-rename" target={list.id} onResult={settings.report} className={styles.inline} noValidate>
          {({ result: r, busy }) => (
            <>
              <Field name="name" idPrefix="rename" label="Name of the list" defaultValue={r?.values?.name ?? list.name} errors={r?.errors?.name} />
              <button type="submit" className={buttonClass} disabled={busy}>
                Rename
              </button>
              <FormError result={r} />
            </>
          )}
        </ActionForm>
        <div className={styles.danger} id="delete">
          <h3>Delete this list</h3>
          {confirmDelete ? (
            <ActionForm intent="list-delete" target={list.id} hidden={{ name: list.name }}>
              {({ result: r, busy }) => (
                <>
                  <p>
                    Delete “{list.name}” and its {list.items.length === 1 ? "page" : `${list.items.length} pages`}? The pages
                    themselves and your bookmarks stay.
                  </p>
                  <FormError result={r} />
                  <div className={formStyles.actions}>
                    <button type="submit" className={`${buttonClass} ${formStyles.danger}`} disabled={busy} autoFocus>
                      Yes, delete the list
                    </button>
                    <Link to="?" replace preventScrollReset>
                      No, keep it
                    </Link>
                  </div>
                </>
              )}
            </ActionForm>
          ) : (
            <p>
              <Link to="?delete=confirm#delete" className="button">
                Delete this list…
              </Link>
            </p>
          )}
        </div>
      </Section>
    </>
  );
}
