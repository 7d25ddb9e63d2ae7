// `feature_item` documents: featured items of the education learning hub.
import { document, image, rt, richTextSlice, videoSlice, gallerySlice } from './lib.mjs';

const feature = ({ uid, title, summary, picture, published, updated, body, extra = [] }) =>
  document({
    type: 'feature_item',
    uid,
    tags: ['learning-hub', 'featured'],
    published,
    updated,
    data: { title: rt(`# ${title}`), summary: rt(summary), image: image(picture), body: [richTextSlice(body), ...extra] },
  });

export const featureItems = [
  feature({
    uid: 'beginners-course-tracing-your-family-history', picture: 'family-tree.svg',
    published: ['2025-01-10', '10:00'], updated: ['2026-08-18', '14:00'],
    title: 'Tracing your family history: a course for beginners',
    summary: 'Six weekly sessions that take you from your own memories to the parish registers of the 1700s.',
    body: `
This six-week course is for people who are new to family history or who have started but want a firmer foundation. It runs online on Tuesday evenings in spring and autumn, and in person at Lineage House on Saturday mornings.

## What you will learn

1. Getting started: organising what you know and what you have
2. Civil registration: birth, marriage and death certificates
3. The census, 1841 to 1921
4. Parish registers and the records of the Church of England
5. Wills and probate
6. Putting it together: evidence, sources and next steps

Each session includes a short assignment using your own family, and our tutors give individual feedback. You will also receive our [guides](doc:guides) and a certificate of completion.
`,
  }),
  feature({
    uid: 'reading-old-handwriting', picture: 'handwriting.svg',
    published: ['2025-02-03', '10:00'], updated: ['2026-08-04', '11:05'],
    title: 'Reading old handwriting',
    summary: 'Palaeography for family historians: learn to read the documents your ancestors left behind.',
    body: `
Most of the documents family historians use before 1800 are handwritten, and many before 1700 are in secretary hand, whose letter forms look very different from today's. This course teaches you to read them with confidence.

## Course outline

- Letter forms of secretary and italic hands
- Abbreviations, contractions and the long *s*
- Numbers, dates and money: Roman numerals, regnal years and the old calendar before 1752
- Practice with parish registers, wills, inventories and manorial records
- An introduction to the Latin of parish registers and probate clauses

The course is followed by an optional [palaeography workshop](doc:palaeography-workshop-october-2026) using facsimiles of original documents.
`,
  }),
  feature({
    uid: 'dna-for-family-historians', picture: 'dna.svg',
    published: ['2025-03-12', '10:00'], updated: ['2026-10-27', '09:45'],
    title: 'DNA for family historians',
    summary: 'Understand your test results, interpret your matches and combine DNA with documentary research.',
    body: `
DNA testing has transformed family history, but the results can be bewildering. This four-week online course explains what your results mean and how to use them.

## Topics

- Autosomal, Y-DNA and mitochondrial DNA tests, and which to take
- Centimorgans, shared matches and relationship estimates
- Clustering your matches and building trees for them
- Case studies: adoptions, illegitimacy and brick walls
- Ethics and privacy

No scientific background is needed. Start with our free [introductory talk](doc:dna-introduction-december-2026).
`,
    extra: [videoSlice('Sample lecture')],
  }),
  feature({
    uid: 'exploring-the-1921-census', picture: 'census-form.svg',
    published: ['2025-05-20', '10:00'], updated: null,
    title: 'Exploring the 1921 census',
    summary: 'The most recent census open to the public, and the last for England and Wales until 1951.',
    body: `
The 1921 census of England and Wales was taken on 19 June 1921 and released in January 2022. Because the 1931 census was destroyed in 1942 and none was taken in 1941, it is the last full census open to researchers for a generation.

## What is new in 1921

- the name of each worker's employer and their place of work;
- for children under fifteen, whether both parents were alive, or whether the father or mother or both had died — a poignant reminder of the First World War;
- "divorced" as a possible answer to the question on marital condition;
- the number and ages of all living children under sixteen, for married men, widowers and widows.

## Searching

The census is indexed by name and address. Search for an unusual family member first, and use the address to find neighbours and relatives. Read our guide on [how to use census records](doc:how-to-use-census-records) for more tips.
`,
  }),
  feature({
    uid: 'parish-registers-explained', picture: 'parish-register.svg',
    published: ['2025-07-08', '10:00'], updated: ['2026-01-21', '09:40'],
    title: 'Parish registers explained',
    summary: 'Baptisms, marriages and burials in the Church of England, from 1538 to the present.',
    body: `
Parish registers are the backbone of family history before civil registration. In 1538 Thomas Cromwell ordered every parish in England to keep a register of baptisms, marriages and burials, although few registers survive from that first year.

## Milestones

- **1538** — registers first required.
- **1598** — registers to be kept on parchment, and earlier entries copied into them; annual copies, the bishop's transcripts, sent to the diocese.
- **1754** — Lord Hardwicke's Marriage Act requires marriages in the parish church after banns or by licence, recorded in separate printed registers.
- **1813** — George Rose's Act introduces printed registers for baptisms and burials, with set columns for abode and occupation.
- **1837** — civil registration begins, but parish registers continue to be kept.

## Where to find them

Most registers are now deposited in county record offices, and many can be viewed online. Bishop's transcripts can fill gaps where registers are lost. Our indexes, such as the [Surrey baptism index](doc:surrey-baptism-index-released), help you find the right parish.
`,
    extra: [gallerySlice('Parish life in the records', [
      ['parish-register.svg', 'A register of baptisms, 1783 to 1784'],
      ['church.svg', 'The parish church, where the registers were kept'],
      ['churchyard.svg', 'Headstones can confirm burial entries'],
    ])],
  }),
];
