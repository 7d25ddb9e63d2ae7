// Rich text: a list of blocks (paragraphs, headings, list items, preformatted text,
// pictures, embeds), each edited in its own box, with bold, italic and links over
// selected text. Keyboard: Ctrl+B bold, Ctrl+I italic, Ctrl+K link in a block's box;
// every button has a name that says which block it acts on.
import { useRef, useState, type KeyboardEvent } from "react";
import { ErrorText } from "../../components/forms/Forms";
import formStyles from "../../components/forms/forms.module.css";
import { controlId, errorsAt, errorsUnder } from "./errors";
import { FieldFrame, ItemTools, moved, useEditorEnv } from "./fields";
import { ImageControls, type ImageValue } from "./ImageField";
import { LinkChooser, type LinkValue } from "./LinkField";
import { richTextRules, type FieldModel } from "./models";
import { BLOCK_WORDS, isTextBlock, linkWords, shiftSpans, SPAN_WORDS, toggleSpan, type Block, type EmbedBlock, type ImageBlock, type TextBlock } from "./richtext";
import styles from "./studio.module.css";

function blocksOf(value: unknown): Block[] {
  return Array.isArray(value) ? (value as Block[]) : [];
}

function newBlock(type: string): Block {
  if (type === "image") return { type: "image", url: "", alt: null, copyright: null, dimensions: { width: 0, height: 0 } };
  if (type === "embed") return { type: "embed", oembed: { embed_url: "" } };
  return { type, text: "", spans: [] };
}

export function RichTextField({ path, label, hint, model, value, onChange }: { path: string; label: string; hint?: string; model: FieldModel; value: unknown; onChange: (v: unknown) => void }) {
  const { errors } = useEditorEnv();
  const rules = richTextRules(model);
  const blocks = blocksOf(value);
  const id = controlId(path);

  if (rules.single) {
    // One block (a title): a single line of text of the field's one type.
    const first = blocks[0];
    const text = first && isTextBlock(first) ? first.text : "";
    const type = rules.blocks.find((b) => b !== "image" && b !== "embed") ?? "paragraph";
    return (
      <FieldFrame path={path} label={label} hint={hint} messages={errorsUnder(errors, path)}>
        {(d, invalid) => (
          <input
            id={id}
            className={`${formStyles.input} ${styles.wide}`}
            value={text}
            onChange={(e) => {
              const next = e.target.value;
              const spans = first && isTextBlock(first) ? shiftSpans(first.text, next, first.spans) : [];
              onChange(next ? [{ type: first && isTextBlock(first) ? first.type : type, text: next, spans }] : []);
            }}
            aria-describedby={d}
            aria-invalid={invalid || undefined}
          />
        )}
      </FieldFrame>
    );
  }

  const set = (i: number, b: Block) => onChange(blocks.map((x, j) => (j === i ? b : x)));
  return (
    <FieldFrame as="fieldset" path={path} label={label} hint={hint} messages={errorsAt(errors, path)}>
      {() => (
        <div id={id} tabIndex={-1} className={styles.richText}>
          {blocks.length === 0 ? <p>No text yet.</p> : null}
          <ol className={styles.items}>
            {blocks.map((block, i) => (
              <li key={i} className={styles.block}>
                <BlockEditor
                  path={`${path}.${i}`}
                  index={i}
                  block={block}
                  allowed={rules.blocks}
                  spans={rules.spans}
                  onChange={(b) => set(i, b)}
                />
                <ItemTools
                  index={i}
                  count={blocks.length}
                  name={`block ${i + 1}`}
                  onMove={(to) => onChange(moved(blocks, i, to))}
                  onRemove={() => onChange(blocks.filter((_, j) => j !== i))}
                />
              </li>
            ))}
          </ol>
          <AddBlock idBase={id} allowed={rules.blocks} label={label} onAdd={(type) => onChange([...blocks, newBlock(type)])} />
        </div>
      )}
    </FieldFrame>
  );
}

function AddBlock({ idBase, allowed, label, onAdd }: { idBase: string; allowed: readonly string[]; label: string; onAdd: (type: string) => void }) {
  const [type, setType] = useState<string>(allowed.includes("paragraph") ? "paragraph" : (allowed[0] ?? "paragraph"));
  return (
    <div className={styles.addRow}>
      <label htmlFor={`${idBase}-add`}>New block in {label.toLowerCase()}</label>
      <select id={`${idBase}-add`} className={formStyles.input} value={type} onChange={(e) => setType(e.target.value)}>
        {allowed.map((b) => (
          <option key={b} value={b}>
            {BLOCK_WORDS[b] ?? b}
          </option>
        ))}
      </select>
      <button type="button" className="button" onClick={() => onAdd(type)}>
        Add the block
      </button>
    </div>
  );
}

function BlockEditor({ path, index, block, allowed, spans, onChange }: { path: string; index: number; block: Block; allowed: readonly string[]; spans: readonly string[]; onChange: (b: Block) => void }) {
  const { errors } = useEditorEnv();
  const id = controlId(path);
  const name = `block ${index + 1}`;
  const textTypes = allowed.filter((b) => b !== "image" && b !== "embed");
  return (
    <div role="group" aria-label={`Block ${index + 1}: ${BLOCK_WORDS[block.type] ?? block.type}`}>
      {isTextBlock(block) ? (
        <div className={styles.blockType}>
          <label htmlFor={`${id}-type`}>Kind of {name}</label>
          <select
            id={`${id}-type`}
            className={formStyles.input}
            value={block.type}
            onChange={(e) => onChange({ ...block, type: e.target.value })}
          >
            {(textTypes.includes(block.type) ? textTypes : [block.type, ...textTypes]).map((b) => (
              <option key={b} value={b}>
                {BLOCK_WORDS[b] ?? b}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {isTextBlock(block) ? (
        <TextBlockEditor path={path} name={name} block={block} spans={spans} onChange={onChange} messages={errorsUnder(errors, path)} />
      ) : block.type === "image" ? (
        <ImageControls
          path={path}
          label={`Picture (${name})`}
          value={block as unknown as ImageValue}
          onChange={(v) => onChange({ ...(block as ImageBlock), ...(v as object), type: "image" } as ImageBlock)}
          onRemove={() => onChange({ type: "image", url: "", alt: null, copyright: null, dimensions: { width: 0, height: 0 } })}
        />
      ) : (
        <div className={formStyles.field}>
          <label htmlFor={id}>Address of the video or page to embed ({name})</label>
          {errorsUnder(errors, path).length ? <p className={formStyles.error}>{errorsUnder(errors, path).join(" ")}</p> : null}
          <input
            id={id}
            type="url"
            className={formStyles.input}
            value={(block as EmbedBlock).oembed?.embed_url ?? ""}
            onChange={(e) => onChange({ type: "embed", oembed: { ...(block as EmbedBlock).oembed, embed_url: e.target.value } })}
          />
        </div>
      )}
    </div>
  );
}

function TextBlockEditor({ path, name, block, spans, onChange, messages }: { path: string; name: string; block: TextBlock; spans: readonly string[]; onChange: (b: TextBlock) => void; messages: string[] }) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const [linking, setLinking] = useState<{ start: number; end: number } | null>(null);
  const [note, setNote] = useState("");
  // A web address typed for a link, added when "Add the link" is pressed.
  const pendingWeb = useRef<LinkValue | null>(null);
  const id = controlId(path);

  const selection = () => {
    const el = ref.current;
    return el ? { start: el.selectionStart, end: el.selectionEnd } : { start: 0, end: 0 };
  };
  const apply = (type: string) => {
    const { start, end } = selection();
    if (end <= start) {
      setNote("Select some text in the box first.");
      return;
    }
    setNote("");
    if (type === "hyperlink") {
      setLinking({ start, end });
      return;
    }
    onChange({ ...block, spans: toggleSpan(block.spans, start, end, type) });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!(e.ctrlKey || e.metaKey)) return;
    const key = e.key.toLowerCase();
    const type = key === "b" ? "strong" : key === "i" ? "em" : key === "k" ? "hyperlink" : null;
    if (type && spans.includes(type)) {
      e.preventDefault();
      apply(type);
    }
  };
  const errorId = messages.length ? `${id}-error` : undefined;
  return (
    <div className={messages.length ? `${formStyles.field} ${formStyles.fieldError}` : formStyles.field}>
      <label htmlFor={id}>Text of {name}</label>
      <ErrorText id={errorId} errors={messages} />
      {spans.length ? (
        <div className={styles.tools} role="toolbar" aria-label={`Formatting of ${name}`} aria-controls={id}>
          {spans.map((s) => (
            <button key={s} type="button" className="button" onMouseDown={(e) => e.preventDefault()} onClick={() => apply(s)}>
              {SPAN_WORDS[s] ?? s}
            </button>
          ))}
        </div>
      ) : null}
      <p className="visually-hidden" aria-live="polite">
        {note}
      </p>
      {note ? <p className={formStyles.hint}>{note}</p> : null}
      <textarea
        ref={ref}
        id={id}
        rows={Math.min(12, Math.max(2, Math.ceil(block.text.length / 70)))}
        className={`${formStyles.input} ${styles.wide} ${block.type === "preformatted" ? styles.code : ""}`}
        value={block.text}
        onKeyDown={onKeyDown}
        onChange={(e) => onChange({ ...block, text: e.target.value, spans: shiftSpans(block.text, e.target.value, block.spans) })}
        aria-describedby={errorId}
        aria-invalid={errorId ? true : undefined}
      />
      {linking ? (
        <div className={styles.picker} role="group" aria-label={`Link over “${block.text.slice(linking.start, linking.end)}”`}>
          <p>
            Link the words “{block.text.slice(linking.start, linking.end)}” to:
          </p>
          <LinkChooser
            idBase={`${id}-link`}
            value={{ link_type: "Any" }}
            onChange={(v: LinkValue) => {
              if (v.link_type === "Document") {
                onChange({ ...block, spans: toggleSpan(block.spans, linking.start, linking.end, "hyperlink", v) });
                setLinking(null);
              } else {
                pendingWeb.current = v.link_type === "Web" ? v : null;
              }
            }}
          />
          <div className={styles.tools}>
            <button
              type="button"
              className="button button--primary"
              onClick={() => {
                if (pendingWeb.current) onChange({ ...block, spans: toggleSpan(block.spans, linking.start, linking.end, "hyperlink", pendingWeb.current) });
                pendingWeb.current = null;
                setLinking(null);
                ref.current?.focus();
              }}
            >
              Add the link
            </button>
            <button
              type="button"
              className="button"
              onClick={() => {
                pendingWeb.current = null;
                setLinking(null);
                ref.current?.focus();
              }}
            >
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      {block.spans.length ? (
        <ul className={styles.spans} aria-label={`Formatting in ${name}`}>
          {block.spans.map((s, i) => (
            <li key={`${s.start}-${s.end}-${s.type}-${i}`}>
              {SPAN_WORDS[s.type] ?? s.type}: “{block.text.slice(s.start, s.end)}”
              {s.type === "hyperlink" ? ` → ${linkWords(s.data)}` : ""}{" "}
              <button type="button" className={styles.linkButton} onClick={() => onChange({ ...block, spans: block.spans.filter((_, j) => j !== i) })}>
                Remove<span className="visually-hidden"> {SPAN_WORDS[s.type] ?? s.type} from “{block.text.slice(s.start, s.end)}”</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
