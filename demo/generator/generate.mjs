#!/usr/bin/env node
// Generates demo/content/*.json (one Prismic v2 document per file) from the
// authoring modules beside this file. Usage: node demo/generator/generate.mjs [outDir]
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { media, resolveDocumentLinks } from './lib.mjs';

media('parish-register.svg', 'An open parish register of baptisms for 1783 and 1784');
media('church.svg', 'A medieval parish church with a square tower at dusk');
media('family-group.svg', 'A sepia Victorian portrait of a family of five in an oval frame');
media('county-map.svg', 'An antique-style map showing parish boundaries, a river and market towns');
media('census-form.svg', 'A page from a census enumerator’s book listing the Cooper household');
media('churchyard.svg', 'Weathered headstones in a country churchyard');
media('library.svg', 'The library reading room with tall bookcases and green reading lamps');
media('dna.svg', 'A DNA double helix beside a family tree showing shared centimorgans');
media('family-tree.svg', 'A four-generation pedigree chart of the Cooper family');
media('certificate.svg', 'A certified copy of an 1881 birth certificate');
media('handwriting.svg', 'A quill, an inkwell and a handwritten document under a magnifying glass');
media('meeting.svg', 'An audience at a talk with a family tree projected on the screen');
media('annual-report-2025.pdf', null, 'The Society');

// The content modules build image fields as they load, so they are imported only
// after every media file above has been registered.
const { home } = await import('./home.mjs');
const { newsItems } = await import('./news.mjs');
const { events, eventsJoinPage } = await import('./events.mjs');
const { featureItems } = await import('./features.mjs');
const { guides, hintsTips, learnIndexes } = await import('./learn.mjs');
const { organisationPages } = await import('./organisation.mjs');
const { showcase } = await import('./showcase.mjs');
const { researchRoomNotices, volunteerOpportunities, publications, customTypeListings } = await import('./custom.mjs');

const documents = [
  home, ...newsItems, ...events, eventsJoinPage, ...featureItems,
  ...learnIndexes, ...guides, ...hintsTips, ...organisationPages, showcase,
  ...researchRoomNotices, ...volunteerOpportunities, ...publications, ...customTypeListings,
];

const seen = new Set();
for (const d of documents) {
  if (seen.has(d.uid)) throw new Error(`duplicate uid ${d.uid}`);
  seen.add(d.uid);
}
resolveDocumentLinks(documents);

const outDir = process.argv[2] ?? fileURLToPath(new URL('../content/', import.meta.url));
mkdirSync(outDir, { recursive: true });
for (const f of readdirSync(outDir)) if (f.endsWith('.json')) rmSync(join(outDir, f));
for (const d of documents) writeFileSync(join(outDir, `${d.type}.${d.uid}.json`), `${JSON.stringify(d, null, 2)}\n`);
console.log(`wrote ${documents.length} documents to ${outDir}`);
