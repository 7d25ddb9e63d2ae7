// Helpers that turn compact authoring notation into Prismic v2 document JSON.
// Everything is deterministic: ids are derived from stable seeds, so regenerating
// the content set produces byte-identical files.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const LANG = 'en-gb';
export const MEDIA_DIR = fileURLToPath(new URL('../media/', import.meta.url));

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A 16-character base62 id derived from a seed, shaped like Prismic's ids. */
export function stableId(seed, length = 16) {
  const bytes = createHash('sha256').update(seed).digest();
  let id = '';
  for (let i = 0; i < length; i++) id += BASE62[bytes[i] % 62];
  return id;
}

/** A UUID-looking string derived from a seed, for slice ids (`hero$<uuid>`). */
export function stableUuid(seed) {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

// ---------------------------------------------------------------- timestamps

function lastSundayUtc(year, month /* 0-based */) {
  const d = new Date(Date.UTC(year, month + 1, 0));
  d.setUTCDate(d.getUTCDate() - d.getUTCDay());
  return d;
}

/**
 * London wall-clock time → Prismic timestamp in UTC (`YYYY-MM-DDTHH:MM:SS+0000`).
 * British Summer Time runs from 01:00 UTC on the last Sunday of March to 01:00 UTC
 * on the last Sunday of October.
 */
export function londonTime(date, time = '09:00') {
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  let t = Date.UTC(y, m - 1, d, hh, mm);
  const bstStart = lastSundayUtc(y, 2).getTime() + 3600e3;
  const bstEnd = lastSundayUtc(y, 9).getTime() + 3600e3;
  if (t - 3600e3 >= bstStart && t - 3600e3 < bstEnd) t -= 3600e3;
  return new Date(t).toISOString().replace(/\.\d{3}Z$/, '+0000');
}

// ---------------------------------------------------------------- media

const mediaCatalogue = new Map();

/** Registers a media file with its alt text and credit; reads dimensions from SVG. */
export function media(file, alt, copyright = 'Lineage demo illustration') {
  const path = join(MEDIA_DIR, file);
  const size = statSync(path).size;
  let dimensions = null;
  if (file.endsWith('.svg')) {
    const m = /viewBox="0 0 (\d+) (\d+)"/.exec(readFileSync(path, 'utf8'));
    dimensions = { width: Number(m[1]), height: Number(m[2]) };
  }
  mediaCatalogue.set(file, { file, alt, copyright, size, dimensions });
}

function mediaInfo(file) {
  const info = mediaCatalogue.get(file);
  if (!info) throw new Error(`unregistered media file ${file}`);
  return info;
}

/** An image field value. */
export function image(file, alt) {
  const info = mediaInfo(file);
  return {
    id: stableId(`media:${file}`),
    url: `/media/${file}`,
    alt: alt ?? info.alt,
    copyright: info.copyright,
    dimensions: info.dimensions,
    edit: { x: 0, y: 0, zoom: 1, background: 'transparent' },
  };
}

/** A Media link (to an image or a document such as a PDF). */
export function mediaLink(file) {
  const info = mediaInfo(file);
  const link = {
    link_type: 'Media',
    id: stableId(`media:${file}`),
    name: file,
    kind: info.dimensions ? 'image' : 'document',
    url: `/media/${file}`,
    size: String(info.size),
  };
  if (info.dimensions) {
    link.height = String(info.dimensions.height);
    link.width = String(info.dimensions.width);
  }
  return link;
}

// ---------------------------------------------------------------- links

/** A Document link placeholder, completed by `resolveDocumentLinks` once all docs exist. */
export const docLink = (uid) => ({ link_type: 'Document', __uid: uid });
export const webLink = (url, target) => (target ? { link_type: 'Web', url, target } : { link_type: 'Web', url });
export const emptyLink = () => ({ link_type: 'Any' });

function linkFromTarget(target) {
  if (target.startsWith('doc:')) return docLink(target.slice(4));
  if (target.startsWith('media:')) return mediaLink(target.slice(6));
  if (target.startsWith('blank:')) return webLink(target.slice(6), '_blank');
  if (/^https?:\/\//.test(target)) return webLink(target);
  throw new Error(`unknown link target ${target}`);
}

// ---------------------------------------------------------------- oEmbed

/** The public placeholder video used wherever a recorded talk is embedded. */
export function youtubeOembed() {
  const id = 'aqz-KE-bpKQ';
  const title = 'Big Buck Bunny 60fps 4K - Official Blender Foundation Short Film';
  return {
    type: 'video',
    version: '1.0',
    embed_url: `https://www.youtube.com/watch?v=${id}`,
    title,
    author_name: 'Blender',
    author_url: 'https://www.youtube.com/@BlenderOfficial',
    provider_name: 'YouTube',
    provider_url: 'https://www.youtube.com/',
    thumbnail_url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg`,
    thumbnail_width: 480,
    thumbnail_height: 360,
    width: 480,
    height: 270,
    html: `<iframe width="480" height="270" src="https://www.youtube.com/embed/${id}?feature=oembed" frameborder="0" allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen title="${title}"></iframe>`,
  };
}

// ---------------------------------------------------------------- rich text

/**
 * Parses one line of inline markup into `{text, spans}`; offsets are UTF-16 code
 * units because they are JavaScript string indices.
 *
 *   **strong**   *em*   [text](target)   {{label:name|text}}   \x (literal x)
 *
 * Markers close by type, not by nesting, so `**a *b** c*` yields crossing spans.
 * Targets: `doc:<uid>`, `media:<file>`, `https://…`, `blank:https://…` (opens in a new tab).
 */
export function inline(source) {
  let text = '';
  const open = [];
  const spans = [];
  const close = (type, data) => {
    const at = open.map((s) => s.type).lastIndexOf(type);
    if (at < 0) throw new Error(`unbalanced ${type} in: ${source}`);
    const [span] = open.splice(at, 1);
    const out = { start: span.start, end: text.length, type };
    if (data !== undefined) out.data = data;
    else if (span.data !== undefined) out.data = span.data;
    spans.push(out);
  };
  const toggle = (type) => (open.some((s) => s.type === type) ? close(type) : open.push({ type, start: text.length }));
  for (let i = 0; i < source.length; ) {
    const rest = source.slice(i);
    if (rest[0] === '\\') { text += rest[1]; i += 2; continue; }
    if (rest.startsWith('**')) { toggle('strong'); i += 2; continue; }
    if (rest[0] === '*') { toggle('em'); i += 1; continue; }
    if (rest[0] === '[') { open.push({ type: 'hyperlink', start: text.length }); i += 1; continue; }
    if (rest.startsWith('](')) {
      const end = source.indexOf(')', i + 2);
      close('hyperlink', linkFromTarget(source.slice(i + 2, end)));
      i = end + 1;
      continue;
    }
    const label = /^\{\{label:([\w-]+)\|/.exec(rest);
    if (label) { open.push({ type: 'label', start: text.length, data: { label: label[1] } }); i += label[0].length; continue; }
    if (rest.startsWith('}}')) { close('label'); i += 2; continue; }
    text += rest[0];
    i += 1;
  }
  if (open.length) throw new Error(`unclosed ${open.map((s) => s.type)} in: ${source}`);
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  return { text, spans };
}

const HEADING = /^(#{1,6}) (.*)$/;

/**
 * Parses block markup into a rich-text field. Blocks are separated by blank lines;
 * inside a block, lines starting with `- ` or `1. ` are list items.
 *
 *   # … ###### headings        - item / 1. item        ```…``` preformatted
 *   ![alt](file.svg)  or  ![alt](file.svg | doc:uid)   image block, optionally linked
 *   @embed                      the placeholder talk video as an embed block
 */
export function rt(markup) {
  const blocks = [];
  const src = markup.replace(/^\n+|\s+$/g, '');
  const chunks = [];
  const fence = /```\n([\s\S]*?)\n```/g;
  let last = 0;
  for (let m; (m = fence.exec(src)); ) {
    chunks.push(...src.slice(last, m.index).split(/\n\s*\n/));
    chunks.push({ pre: m[1] });
    last = m.index + m[0].length;
  }
  chunks.push(...src.slice(last).split(/\n\s*\n/));
  for (const chunk of chunks) {
    if (typeof chunk === 'object') { blocks.push({ type: 'preformatted', text: chunk.pre, spans: [] }); continue; }
    const lines = chunk.split('\n').map((l) => l.trim()).filter(Boolean);
    if (!lines.length) continue;
    if (lines.every((l) => /^(- |\d+\. )/.test(l))) {
      for (const l of lines) {
        const ordered = /^\d+\. /.test(l);
        blocks.push({ type: ordered ? 'o-list-item' : 'list-item', ...inline(l.replace(/^(- |\d+\. )/, '')) });
      }
      continue;
    }
    const line = lines.join(' ');
    const heading = HEADING.exec(line);
    const img = /^!\[(.*)\]\(([^|)]+?)(?:\s*\|\s*(.+))?\)$/.exec(line);
    if (heading) blocks.push({ type: `heading${heading[1].length}`, ...inline(heading[2]) });
    else if (img) {
      const { alt: _alt, ...field } = image(img[2].trim());
      const block = { type: 'image', ...field, alt: img[1] };
      if (img[3]) block.linkTo = linkFromTarget(img[3].trim());
      blocks.push(block);
    } else if (line === '@embed') blocks.push({ type: 'embed', oembed: youtubeOembed() });
    else blocks.push({ type: 'paragraph', ...inline(line) });
  }
  return blocks;
}

/** Plain text of a rich-text field (for slugs). */
export const asText = (field) => field.map((b) => b.text ?? '').join(' ');

// ---------------------------------------------------------------- slices

export function slice(slice_type, primary, items = []) {
  return { slice_type, slice_label: null, id: null, variation: 'default', version: 'initial', primary, items };
}
export const richTextSlice = (markup) => slice('rich_text', { content: rt(markup) });
export const heroSlice = ({ title, text, image: img, link = emptyLink(), linkLabel = null }) =>
  slice('hero', { title: rt(`# ${title}`), text: rt(text), image: img, link, link_label: linkLabel });
export const gallerySlice = (title, items) =>
  slice('gallery', { title }, items.map(([file, caption, alt]) => ({ image: image(file, alt), caption })));
export const videoSlice = (title) => slice('video', { title, video: youtubeOembed() });
export const gridSlice = (title, items) =>
  slice('grid', { title }, items.map(({ title: t, text, image: img, link }) => ({
    title: t,
    text: rt(text),
    image: img ?? {},
    link: link ?? emptyLink(),
  })));

// ---------------------------------------------------------------- documents

export const slugify = (s) =>
  s.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/['’]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/**
 * A document in Prismic export shape. `published` / `updated` are `[date, time]`
 * in London time or full timestamps.
 */
export function document({ type, uid, tags = [], published, updated, data }) {
  const stamp = (v) => (Array.isArray(v) ? londonTime(...v) : v);
  const first = stamp(published);
  (data.body ?? []).forEach((s, i) => { s.id = `${s.slice_type}$${stableUuid(`${type}/${uid}/${i}`)}`; });
  return {
    id: stableId(`${type}/${uid}`),
    uid,
    type,
    lang: LANG,
    tags,
    first_publication_date: first,
    last_publication_date: updated ? stamp(updated) : first,
    alternate_languages: [],
    data,
  };
}

/** Replaces Document link placeholders with full link objects; throws on unknown uids. */
export function resolveDocumentLinks(documents) {
  const byUid = new Map(documents.map((d) => [d.uid, d]));
  const walk = (node) => {
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === 'object') {
      if (node.link_type === 'Document' && node.__uid) {
        const target = byUid.get(node.__uid);
        if (!target) throw new Error(`document link to unknown uid ${node.__uid}`);
        return {
          link_type: 'Document',
          id: target.id,
          type: target.type,
          tags: target.tags,
          lang: target.lang,
          slug: slugify(asText(target.data.title)),
          uid: target.uid,
          isBroken: false,
        };
      }
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
    }
    return node;
  };
  for (const d of documents) d.data = walk(d.data);
}
