#!/usr/bin/env node
// Checks the demo content set against ADR 001 and the Prismic v2 shapes in
// protocols §1.6–1.8. Usage: node demo/validate.mjs [contentDir] [mediaDir]
// Exits non-zero and lists every problem found.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const contentDir = process.argv[2] ?? join(here, 'content');
const mediaDir = process.argv[3] ?? join(here, 'media');

const problems = [];
const fail = (where, msg) => problems.push(`${where}: ${msg}`);

const ID = /^[0-9A-Za-z_-]{16}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_MEDIA_BYTES = 30 * 1024;

const TEXT_BLOCKS = new Set(['heading1', 'heading2', 'heading3', 'heading4', 'heading5', 'heading6',
  'paragraph', 'preformatted', 'list-item', 'o-list-item']);
const SPAN_TYPES = new Set(['strong', 'em', 'hyperlink', 'label']);

// Fields per custom type (ADR 001). Values: the checker to apply.
const RICH = 'rich', IMAGE = 'image', SLICES = 'slices', KEYTEXT = 'keytext', LINK = 'link';
const TYPES = {
  home: { title: RICH, intro: RICH, body: SLICES },
  news_item: { title: RICH, summary: RICH, date: 'date', image: IMAGE, body: SLICES },
  feature_item: { title: RICH, summary: RICH, image: IMAGE, body: SLICES },
  event: { title: RICH, summary: RICH, start: 'timestamp', end: 'timestamp', location: KEYTEXT, body: SLICES },
  page: { title: RICH, description: KEYTEXT, parent: LINK, body: SLICES },
  fhwuifhe: { title: RICH, summary: RICH, body: SLICES },
  cwbhvwt: { title: RICH, summary: RICH, body: SLICES },
  dheyenbvu: { title: RICH, summary: RICH, body: SLICES },
};
const SLICE_FIELDS = {
  rich_text: { primary: { content: RICH }, items: {} },
  hero: { primary: { title: RICH, text: RICH, image: IMAGE, link: LINK, link_label: KEYTEXT }, items: {} },
  gallery: { primary: { title: KEYTEXT }, items: { image: IMAGE, caption: KEYTEXT } },
  video: { primary: { title: KEYTEXT, video: 'embed' }, items: {} },
  grid: { primary: { title: KEYTEXT }, items: { title: KEYTEXT, text: RICH, image: IMAGE, link: LINK } },
};

const mediaFiles = new Set(readdirSync(mediaDir));
for (const f of mediaFiles) {
  const size = statSync(join(mediaDir, f)).size;
  if (size > MAX_MEDIA_BYTES) fail(`media/${f}`, `${size} bytes is over ${MAX_MEDIA_BYTES}`);
}

// ---- load
const docs = [];
for (const file of readdirSync(contentDir).filter((f) => f.endsWith('.json')).sort()) {
  try {
    docs.push({ file, doc: JSON.parse(readFileSync(join(contentDir, file), 'utf8')) });
  } catch (e) {
    fail(file, `does not parse: ${e.message}`);
  }
}
const byId = new Map();
const uids = new Map();
for (const { file, doc } of docs) {
  if (byId.has(doc.id)) fail(file, `duplicate id ${doc.id} (also ${byId.get(doc.id).file})`);
  byId.set(doc.id, { file, doc });
  const key = `${doc.type}/${doc.uid}`;
  if (uids.has(key)) fail(file, `duplicate uid ${key}`);
  uids.set(key, file);
}

// ---- field checkers
function checkMediaUrl(where, url) {
  const m = /^\/media\/([^/?#]+)$/.exec(url ?? '');
  if (!m) return fail(where, `media url ${JSON.stringify(url)} is not /media/<file>`);
  if (!mediaFiles.has(m[1])) fail(where, `media file ${m[1]} does not exist`);
}

function checkImage(where, v, { allowEmpty = true } = {}) {
  if (v && typeof v === 'object' && Object.keys(v).length === 0) {
    if (!allowEmpty) fail(where, 'image is empty');
    return;
  }
  if (!v || typeof v !== 'object') return fail(where, 'image is not an object');
  for (const k of ['id', 'url', 'alt', 'copyright', 'dimensions', 'edit']) if (!(k in v)) fail(where, `image lacks ${k}`);
  checkMediaUrl(where, v.url);
  if (!(v.dimensions?.width > 0 && v.dimensions?.height > 0)) fail(where, 'image dimensions missing');
  const e = v.edit ?? {};
  if (e.x !== 0 || e.y !== 0 || e.zoom !== 1 || e.background !== 'transparent') fail(where, 'image edit is not the default');
}

function checkLink(where, v) {
  if (!v || typeof v !== 'object') return fail(where, 'link is not an object');
  switch (v.link_type) {
    case 'Any':
      if (Object.keys(v).length !== 1) fail(where, 'empty link has extra keys');
      return;
    case 'Web':
      if (!/^https?:\/\//.test(v.url ?? '')) fail(where, `web link url ${v.url} is not absolute`);
      return;
    case 'Media':
      for (const k of ['id', 'name', 'kind', 'url', 'size']) if (!(k in v)) fail(where, `media link lacks ${k}`);
      if (typeof v.size !== 'string') fail(where, 'media link size is not a string');
      checkMediaUrl(where, v.url);
      return;
    case 'Document': {
      for (const k of ['id', 'type', 'tags', 'lang', 'slug', 'uid', 'isBroken']) if (!(k in v)) fail(where, `document link lacks ${k}`);
      const target = byId.get(v.id);
      if (!target) return fail(where, `document link to missing id ${v.id}`);
      const t = target.doc;
      if (t.type !== v.type || t.uid !== v.uid || t.lang !== v.lang) fail(where, `document link ${v.id} disagrees with its target`);
      if (JSON.stringify(t.tags) !== JSON.stringify(v.tags)) fail(where, `document link ${v.id} tags differ from target`);
      if (v.isBroken !== false) fail(where, 'document link isBroken is not false');
      return;
    }
    default:
      fail(where, `unknown link_type ${v.link_type}`);
  }
}

function checkEmbed(where, v) {
  for (const k of ['type', 'embed_url', 'html', 'title', 'provider_name', 'width', 'height', 'thumbnail_url']) {
    if (!(k in (v ?? {}))) fail(where, `oEmbed lacks ${k}`);
  }
  if (v?.type !== 'video') fail(where, 'oEmbed type is not video');
}

function checkRichText(where, blocks) {
  if (!Array.isArray(blocks)) return fail(where, 'rich text is not an array');
  blocks.forEach((b, i) => {
    const at = `${where}[${i}]`;
    if (b.type === 'image') {
      checkImage(at, b, { allowEmpty: false });
      if (b.linkTo) checkLink(`${at}.linkTo`, b.linkTo);
      return;
    }
    if (b.type === 'embed') return checkEmbed(`${at}.oembed`, b.oembed);
    if (!TEXT_BLOCKS.has(b.type)) return fail(at, `unknown block type ${b.type}`);
    if (typeof b.text !== 'string') return fail(at, 'text is not a string');
    if (!Array.isArray(b.spans)) return fail(at, 'spans is not an array');
    // JavaScript string length is the UTF-16 length, the unit Prismic offsets use.
    const length = b.text.length;
    b.spans.forEach((s, j) => {
      const sat = `${at}.spans[${j}]`;
      if (!SPAN_TYPES.has(s.type)) fail(sat, `unknown span type ${s.type}`);
      if (!(Number.isInteger(s.start) && Number.isInteger(s.end) && s.start >= 0 && s.start < s.end && s.end <= length)) {
        fail(sat, `offsets ${s.start}..${s.end} outside text of length ${length}`);
      }
      if (s.type === 'hyperlink') checkLink(`${sat}.data`, s.data);
      else if (s.type === 'label') { if (typeof s.data?.label !== 'string') fail(sat, 'label span lacks data.label'); }
      else if ('data' in s) fail(sat, `${s.type} span has data`);
    });
  });
}

function checkField(where, kind, v) {
  switch (kind) {
    case RICH: return checkRichText(where, v);
    case IMAGE: return checkImage(where, v);
    case LINK: return checkLink(where, v);
    case KEYTEXT: if (v !== null && typeof v !== 'string') fail(where, 'key text is not a string or null'); return;
    case 'date': if (!DATE.test(v ?? '')) fail(where, `date ${v} is not YYYY-MM-DD`); return;
    case 'timestamp': if (!TIMESTAMP.test(v ?? '')) fail(where, `timestamp ${v} is malformed`); return;
    case 'embed': return checkEmbed(where, v);
    case SLICES: return checkSlices(where, v);
  }
}

function checkSlices(where, slices) {
  if (!Array.isArray(slices)) return fail(where, 'slice zone is not an array');
  const ids = new Set();
  slices.forEach((s, i) => {
    const at = `${where}[${i}]`;
    const spec = SLICE_FIELDS[s.slice_type];
    if (!spec) return fail(at, `unknown slice_type ${s.slice_type}`);
    if (!new RegExp(`^${s.slice_type}\\$[0-9a-f-]{36}$`).test(s.id ?? '')) fail(at, `slice id ${s.id} malformed`);
    if (ids.has(s.id)) fail(at, `duplicate slice id ${s.id}`);
    ids.add(s.id);
    if (s.variation !== 'default' || !s.version) fail(at, 'slice variation/version missing');
    for (const [k, kind] of Object.entries(spec.primary)) {
      if (!(k in (s.primary ?? {}))) fail(at, `primary lacks ${k}`);
      else checkField(`${at}.primary.${k}`, kind, s.primary[k]);
    }
    if (!Array.isArray(s.items)) return fail(at, 'items is not an array');
    s.items.forEach((item, j) => {
      for (const [k, kind] of Object.entries(spec.items)) {
        if (!(k in item)) fail(`${at}.items[${j}]`, `lacks ${k}`);
        else checkField(`${at}.items[${j}].${k}`, kind, item[k]);
      }
    });
  });
}

// ---- documents
for (const { file, doc } of docs) {
  if (!ID.test(doc.id ?? '')) fail(file, `id ${doc.id} is not 16 base62 characters`);
  if (file !== `${doc.type}.${doc.uid}.json`) fail(file, `file name should be ${doc.type}.${doc.uid}.json`);
  if (doc.lang !== 'en-gb') fail(file, `lang ${doc.lang} is not en-gb`);
  if (!Array.isArray(doc.tags)) fail(file, 'tags is not an array');
  if (!Array.isArray(doc.alternate_languages)) fail(file, 'alternate_languages is not an array');
  for (const k of ['first_publication_date', 'last_publication_date']) {
    if (!TIMESTAMP.test(doc[k] ?? '')) fail(file, `${k} ${doc[k]} is malformed`);
  }
  if (doc.last_publication_date < doc.first_publication_date) fail(file, 'last_publication_date is before first');
  const spec = TYPES[doc.type];
  if (!spec) { fail(file, `unknown type ${doc.type}`); continue; }
  if (doc.type === 'home' && doc.uid !== 'home') fail(file, 'home uid must be home');
  for (const [k, kind] of Object.entries(spec)) {
    if (!(k in (doc.data ?? {}))) fail(file, `data lacks ${k}`);
    else checkField(`${file} data.${k}`, kind, doc.data[k]);
  }
  if (doc.type === 'event' && doc.data.end < doc.data.start) fail(file, 'event ends before it starts');
  if (doc.type === 'page' && doc.data.parent?.link_type === 'Document' && doc.data.parent.type !== 'page') {
    fail(file, 'parent is not a page');
  }
}

// ---- block-showcase must exercise every slice, block and span kind
const showcase = docs.find(({ doc }) => doc.type === 'page' && doc.uid === 'block-showcase')?.doc;
if (!showcase) fail('page.block-showcase.json', 'missing');
else {
  const seen = new Set();
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    if (node.slice_type) seen.add(`slice:${node.slice_type}`);
    if (typeof node.type === 'string' && (TEXT_BLOCKS.has(node.type) || node.type === 'image' || node.type === 'embed')) {
      seen.add(`block:${node.type}`);
      if (node.type === 'image' && node.linkTo) seen.add('image-linkTo');
      const spans = node.spans ?? [];
      for (const s of spans) {
        seen.add(`span:${s.type}`);
        if (s.type === 'hyperlink') seen.add(`hyperlink:${s.data.link_type}`);
      }
      const crossing = spans.some((a) => spans.some((b) => a !== b && a.start < b.start && b.start < a.end && a.end < b.end));
      if (crossing) seen.add('overlapping-spans');
      if (/[\ud800-\udbff]/.test(node.text ?? '') && spans.length) seen.add('astral-text-with-spans');
    }
    Object.values(node).forEach(visit);
  };
  visit(showcase.data.body);
  const wanted = [
    ...Object.keys(SLICE_FIELDS).map((t) => `slice:${t}`),
    ...[...TEXT_BLOCKS, 'image', 'embed'].map((t) => `block:${t}`),
    ...[...SPAN_TYPES].map((t) => `span:${t}`),
    'hyperlink:Web', 'hyperlink:Document', 'hyperlink:Media', 'image-linkTo', 'overlapping-spans', 'astral-text-with-spans',
  ];
  for (const w of wanted) if (!seen.has(w)) fail('page.block-showcase.json', `does not use ${w}`);
}

if (problems.length) {
  console.error(problems.join('\n'));
  console.error(`\n${problems.length} problem(s) in ${docs.length} documents`);
  process.exit(1);
}
const counts = {};
for (const { doc } of docs) counts[doc.type] = (counts[doc.type] ?? 0) + 1;
console.log(`ok: ${docs.length} documents, ${mediaFiles.size} media files`, counts);
