// The three custom types listed at their route's root and shown at their slug
// (ADR 001): research-room notices (`fhwuifhe`), volunteer opportunities
// (`cwbhvwt`) and publications (`dheyenbvu`). Fields: title, summary, body.
// Each list's heading, introduction and browser title come from a `page` whose
// uid the link resolver places at the list's route (CUSTOM_TYPE_LISTINGS).
import { document, image, rt, richTextSlice, heroSlice, gridSlice, docLink } from './lib.mjs';
import { page } from './pages.mjs';

const item = (type, tags) => ({ uid, title, summary, published, updated, body, extra = [] }) =>
  document({
    type,
    uid,
    tags,
    published,
    updated,
    data: { title: rt(`# ${title}`), summary: rt(summary), body: [richTextSlice(body), ...extra] },
  });

const notice = item('fhwuifhe', ['research-room']);
const volunteering = item('cwbhvwt', ['volunteering']);
const publication = item('dheyenbvu', ['publications']);

export const researchRoomNotices = [
  notice({
    uid: 'booking-a-research-room-seat', published: ['2025-01-13', '09:00'], updated: ['2026-09-15', '09:40'],
    title: 'Booking a research-room seat',
    summary: 'Seats and microfilm readers can be booked up to four weeks ahead; Saturdays are busiest.',
    body: `
The research room has 32 seats, eight microfilm and microfiche readers and twelve computers with access to the major genealogy websites. Members may book a seat, reader or computer up to **four weeks** in advance; visitors up to one week.

- Bookings are held for 30 minutes after the start of the session.
- Each member may book up to two sessions a week, so that as many people as possible can visit.
- Unbooked seats are available on a first-come, first-served basis.

To book, use the members' area or telephone the library desk during opening hours. Please cancel if you cannot come.
`,
  }),
  notice({
    uid: 'microfilm-readers-replaced', published: ['2025-10-20', '10:00'],
    title: 'New microfilm readers installed',
    summary: 'Four new digital microfilm scanners let you save images straight to a USB stick or email.',
    body: `
We have replaced four of the old microfilm readers with **digital scanners**. You can zoom, adjust contrast, crop and save images of film and fiche to a USB memory stick or send them to your email address, free of charge for personal research.

Staff will be happy to show you how they work. Please ask at the desk for one of our quick-start cards. The older readers remain available for those who prefer them.
`,
  }),
  notice({
    uid: 'handling-original-documents', published: ['2025-04-07', '11:00'], updated: ['2026-02-10', '12:00'],
    title: 'Handling original documents',
    summary: 'How to look after our manuscripts and rare books when you consult them in the research room.',
    body: `
Some of our manuscripts and rare books are the only copies in existence. Please help us keep them safe for future researchers.

- Use pencils only; pens are not allowed in the research room.
- Wash and dry your hands before handling documents; gloves are not usually needed, and can make you clumsy with fragile paper.
- Support bound volumes on the foam cushions provided and do not force them open.
- Keep documents flat on the table and do not lean on them or place notes on top.
- You may photograph most items without flash for personal research; ask staff if in doubt.

If you notice damage to an item, please tell a member of staff rather than trying to repair it.
`,
  }),
];

export const volunteerOpportunities = [
  volunteering({
    uid: 'transcription-volunteers', published: ['2025-02-20', '09:45'], updated: ['2026-06-30', '09:40'],
    title: 'Transcription volunteers',
    summary: 'Transcribe parish registers and other records from home, at your own pace.',
    body: `
Our indexes are made by volunteers, and we are always looking for more. You can work from anywhere with an internet connection, for as little or as much time as you like.

## What you will do

You will be shown images of register pages and asked to type the entries into a simple form. Every page is transcribed by two volunteers, and an experienced editor resolves any differences, so you need not worry about making mistakes.

## What you need

- a computer or tablet with an internet connection;
- patience and an eye for detail;
- no previous experience: full training and guidance notes are provided.

Current projects include the [Surrey baptism index](doc:surrey-baptism-index-released) and the Kent monumental inscriptions. To sign up, contact the volunteer coordinator.
`,
    extra: [gridSlice('Current projects', [
      { title: 'Surrey baptisms, 1813–1837', text: 'Printed registers, clear handwriting: ideal for beginners.', image: image('parish-register.svg'), link: docLink('surrey-baptism-index-released') },
      { title: 'Kent monumental inscriptions', text: 'Notebooks of gravestone inscriptions recorded since the 1960s.', image: image('churchyard.svg'), link: docLink('volunteer-transcription-drive-2025') },
    ])],
  }),
  volunteering({
    uid: 'library-welcome-desk-volunteers', published: ['2025-05-06', '10:00'],
    title: 'Library welcome desk volunteers',
    summary: 'Greet visitors, answer questions and help newcomers take their first steps in the library.',
    body: `
Welcome desk volunteers are the first people visitors meet. You will greet members and visitors, take day fees, explain how the library works and point newcomers to the right sources.

We ask for one half-day session a week or fortnight, during library opening hours, including Thursday evenings and Saturdays. Some experience of family history research is helpful, but training is given. You will be part of a friendly team and receive free access to the library's subscription websites during your volunteering time.
`,
  }),
  volunteering({
    uid: 'memorial-card-indexing', published: ['2025-11-11', '09:40'],
    title: 'Memorial card indexing',
    summary: 'Help us index and describe the thousands of memorial cards donated to the Society.',
    body: `
Following the publication of our [First World War memorial cards](doc:memorial-cards-digitised), we are now indexing the rest of the collection, which includes cards from the 1860s to the 1950s.

Volunteers record the name, dates, places and other details on each card, and describe its design and any photograph. The work can be done at home from digital images. It suits people who enjoy careful, detailed work and who are interested in Victorian and Edwardian social history.
`,
  }),
];

export const publications = [
  publication({
    uid: 'lineage-journal', published: ['2025-01-20', '10:00'], updated: ['2026-06-23', '10:00'],
    title: 'The Lineage Journal',
    summary: 'Our quarterly journal of research articles, case studies, news and reviews, free to members.',
    body: `
The *Lineage Journal* is published four times a year and sent free to all members, in print or digitally. Each issue includes research articles, case studies by members, guides to record sources, book reviews and news from the library.

We welcome contributions from members. Articles are usually between 2,000 and 4,000 words and should cite their sources. Send a short proposal to the Editor before writing a full article.

Members can read every issue since 1927 in the members' area; the index to back issues is free for everyone.
`,
    extra: [heroSlice({
      title: 'Write for the Journal',
      text: 'Share your discoveries with thousands of fellow researchers.',
      image: image('handwriting.svg'),
      link: docLink('writing-genealogical-reports'), linkLabel: 'How to write up your research',
    })],
  }),
  publication({
    uid: 'guide-booklets', published: ['2025-03-03', '10:00'],
    title: 'Guide booklets',
    summary: 'Short, practical printed guides to record sources, available from the library shop and by post.',
    body: `
Our series of guide booklets, written by experienced researchers, explains the major record sources in plain language. Titles in print include:

- *Tracing a Craftsman Ancestor*
- *Parish Registers: a Beginner's Guide*
- *Using the Census, 1841–1921*
- *Wills and Probate before 1858*
- *Tracing London Ancestors*

Members receive a discount on all booklets. Many of the topics are also covered by our free online [guides](doc:guides).
`,
  }),
  publication({
    uid: 'members-newsletter', published: ['2025-04-01', '10:00'], updated: ['2026-10-01', '10:00'],
    title: 'Members’ newsletter',
    summary: 'A monthly email newsletter with Society news, new indexes, events and research tips.',
    body: `
Our monthly newsletter brings you the latest Society news, new indexes and acquisitions, forthcoming talks and courses, and a research tip from our librarians. It is sent by email on the first working day of each month.

All members receive the newsletter unless they choose not to. Non-members can sign up to a shorter public edition. You can unsubscribe at any time using the link at the foot of each email.
`,
  }),
];

/** The `page` documents that head the three lists (their routes are code names). */
export const customTypeListings = [
  page({
    uid: 'research-room-notices', title: 'Research room notices',
    description: 'What to know before you visit the research room at Lineage House: booking a seat, the equipment and looking after the collections.',
    parent: null, tags: ['research-room'], published: ['2025-01-13', '09:00'], updated: ['2026-09-15', '09:40'],
    body: [
      richTextSlice(`
The research room at Lineage House is open to members and visitors. These notices tell you how to book, what equipment you will find and how to handle our original documents.
`),
    ],
  }),
  page({
    uid: 'volunteer-opportunities', title: 'Volunteer with the Society',
    description: 'Ways to give a few hours of your time: transcribing records from home, welcoming visitors to the library, indexing memorial cards.',
    parent: null, tags: ['volunteering'], published: ['2025-02-20', '09:45'], updated: ['2026-06-30', '09:40'],
    body: [
      richTextSlice(`
Most of the Society's indexes were made by volunteers. Whether you can give an hour a month from home or a morning a week at Lineage House, there is a role for you, and training is provided.
`),
    ],
  }),
  page({
    uid: 'publications', title: 'Publications',
    description: 'The Lineage Journal, our guide booklets and the members’ newsletter.',
    parent: null, tags: ['publications'], published: ['2025-01-20', '10:00'], updated: ['2026-10-01', '10:00'],
    body: [
      richTextSlice(`
The Society publishes a quarterly journal, short printed guides to record sources and a monthly newsletter. Members receive the Journal and the newsletter free.
`),
    ],
  }),
];
