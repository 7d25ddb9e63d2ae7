// `news_item` documents: Society news from 2025 and 2026.
import { document, image, rt, richTextSlice, gallerySlice, videoSlice } from './lib.mjs';

const news = ({ uid, date, time = '09:30', title, summary, picture, tags = [], updated, body, extra = [] }) =>
  document({
    type: 'news_item',
    uid,
    tags: ['news', ...tags],
    published: [date, time],
    updated,
    data: { title: rt(`# ${title}`), summary: rt(summary), date, image: image(picture), body: [richTextSlice(body), ...extra] },
  });

export const newsItems = [
  news({
    uid: 'library-opening-hours-2025', date: '2025-01-14', tags: ['library'], picture: 'library.svg',
    title: 'Library opening hours for 2025',
    summary: 'The library reopens after the new year with the same hours, and with Saturday opening every week.',
    body: `
The library reopened on Tuesday 7 January after the Christmas break. Our opening hours for 2025 are:

- Tuesday to Thursday: 10:00 to 18:00
- Friday: 10:00 to 17:00
- Saturday: 10:00 to 17:00
- Sunday and Monday: closed

Members may use the library free of charge. Visitors are welcome on payment of a day fee, which can be set against the cost of membership if you join on the day. We recommend [booking a research-room seat](doc:booking-a-research-room-seat) in advance on Saturdays, which are our busiest days.
`,
  }),
  news({
    uid: 'middlesex-marriage-index-released', date: '2025-02-20', tags: ['indexes', 'parish-registers'], picture: 'parish-register.svg',
    updated: ['2025-03-03', '16:20'],
    title: 'Middlesex marriage index released',
    summary: 'More than 180,000 marriages from Middlesex parish registers, 1754 to 1837, are now searchable by members.',
    body: `
We are delighted to release our **Middlesex marriage index**, covering marriages recorded in 94 Church of England parishes in the old county of Middlesex between 1754 and 1837.

The index was compiled over six years by 140 volunteers working from microfilm and digital images of the registers. It contains more than 180,000 marriages, and each entry gives the names of both parties, their parishes, the date, whether the marriage was by banns or licence, and the names of the witnesses where they appear in the register.

Because the index records both parishes, it is especially useful for finding couples who married away from home — a common London habit. Members can search it from the research hub; visitors can search it in the library.

Our thanks go to every volunteer who took part. If you would like to help with our next project, see our [transcription volunteer](doc:transcription-volunteers) page.
`,
  }),
  news({
    uid: 'volunteer-transcription-drive-2025', date: '2025-03-18', tags: ['volunteering'], picture: 'churchyard.svg',
    title: 'Spring volunteer transcription drive',
    summary: 'Help us transcribe 50,000 monumental inscriptions from Kent churchyards — from home, at your own pace.',
    body: `
This spring we are asking members to help transcribe **monumental inscriptions** recorded in Kent churchyards by Society volunteers between the 1960s and the 1990s. Many of the stones have since weathered beyond reading, so these notebooks are often the only record of what they said.

You can work from home, at your own pace, using our online transcription tool. Each notebook page is transcribed twice by different volunteers and any differences are checked by an editor, so you need not worry about making mistakes.

Training sessions will be held online on 27 March and 3 April. To take part, see our [volunteer opportunities](doc:transcription-volunteers).
`,
  }),
  news({
    uid: 'dna-talk-recording-online', date: '2025-04-29', tags: ['dna', 'talks'], picture: 'dna.svg',
    title: 'DNA talk recording now online',
    summary: 'Missed our sold-out talk on DNA for family historians? The recording is now available to members.',
    body: `
Our March talk, *DNA for family historians: making sense of your matches*, sold out within a week. The recording is now available to members in the members' area.

The talk explains the differences between autosomal, Y-chromosome and mitochondrial tests, how to estimate a relationship from the amount of DNA shared, and how to combine DNA evidence with documentary research. It closes with a worked example that breaks through a brick wall in the 1830s.

A longer [DNA course](doc:dna-for-family-historians) runs each autumn.
`,
    extra: [videoSlice('Watch the talk')],
  }),
  news({
    uid: 'agm-2025-notice', date: '2025-05-22', tags: ['agm', 'governance'], picture: 'meeting.svg',
    title: 'Notice of the 2025 Annual General Meeting',
    summary: 'The AGM will be held on Saturday 21 June 2025 at Lineage House and online.',
    body: `
Notice is hereby given that the Annual General Meeting of the Society will be held at **14:00 on Saturday 21 June 2025** at Lineage House and online.

## Agenda

1. Apologies for absence
2. Minutes of the 2024 Annual General Meeting
3. Annual report and accounts for 2024
4. Election of trustees
5. Appointment of auditors
6. Questions from members

Papers, including candidates' statements, have been sent to all members. Members who cannot attend may vote in advance or appoint a proxy. See [annual reports and AGM](doc:annual-reports-and-agm) for details.
`,
  }),
  news({
    uid: 'journal-summer-2025', date: '2025-06-26', tags: ['publications'], picture: 'handwriting.svg',
    title: 'Summer issue of the Journal published',
    summary: 'Articles on Huguenot weavers, Poor Law settlement examinations and a wheelwright family of Diss.',
    body: `
The summer issue of the *Lineage Journal* is on its way to members. In this issue:

- **Silk and faith** — tracing Huguenot weavers in Spitalfields through church and livery company records;
- **"Examined on oath"** — what settlement examinations reveal about the lives of the poor;
- **Wheels within wheels** — a member's account of tracing four generations of a Norfolk wheelwright family;
- reviews of new books on Scottish kirk session records and on photography for family historians.

Back issues are in the library, and members can read the [Journal](doc:lineage-journal) online.
`,
  }),
  news({
    uid: 'library-summer-closure-2025', date: '2025-07-15', tags: ['library'], picture: 'library.svg',
    title: 'Library closed for conservation work, 4 to 15 August',
    summary: 'The reading room will close for two weeks while shelving is replaced and rare books are cleaned.',
    body: `
The library will be **closed from Monday 4 August to Friday 15 August 2025** while we replace the shelving in the rare books room and our conservators clean and box some of the older printed parish register transcripts.

Online services, including the research hub and members' enquiries, will continue as normal, although replies to enquiries may take a little longer. The library reopens at 10:00 on Saturday 16 August.

We are sorry for any inconvenience, and thank members for their patience.
`,
  }),
  news({
    uid: 'new-members-welcome-evenings', date: '2025-09-09', tags: ['membership', 'events'], picture: 'meeting.svg',
    title: 'Welcome evenings for new members',
    summary: 'New members are invited to an evening tour of the library and a chance to meet staff and volunteers.',
    body: `
If you have joined the Society in the last year, come to one of our **welcome evenings** this autumn. You will get a guided tour of the library and the research room, a demonstration of the research hub, and a chance to talk about your own research with our volunteers over a cup of tea.

Evenings will be held on the first Thursday of October, November and December, from 18:00 to 20:00. Places are free but limited; please book at the library desk or by telephone. While you are here, why not [book a research-room seat](doc:booking-a-research-room-seat) for the following Saturday?
`,
  }),
  news({
    uid: 'memorial-cards-digitised', date: '2025-11-11', tags: ['collections', 'first-world-war'], picture: 'churchyard.svg',
    title: 'First World War memorial cards digitised',
    summary: 'On Remembrance Day we publish 3,200 memorial cards for servicemen who died in the First World War.',
    body: `
To mark Remembrance Day, we have published images and an index of **3,200 memorial cards** from our collection commemorating servicemen who died in the First World War.

Memorial cards were printed by families and given to friends and relatives after a death. They often include a photograph, the date and place of death, the man's regiment and home address, and a verse chosen by the family — details rarely found together elsewhere.

The cards are searchable by name, regiment and place in the memorial cards collection of the research hub. We are grateful to the members and families who have given cards to the Society over many years, and we welcome further donations.
`,
  }),
  news({
    uid: 'christmas-closing-2025', date: '2025-12-16', tags: ['library'], picture: 'church.svg',
    title: 'Christmas and New Year closing',
    summary: 'The library closes at 15:00 on Saturday 20 December and reopens on Tuesday 6 January.',
    body: `
The library will close at **15:00 on Saturday 20 December 2025** and reopen at 10:00 on **Tuesday 6 January 2026**.

Online services remain available throughout the holiday. Members' enquiries received during the closure will be answered in January.

Thank you to all our members, visitors and volunteers for your support this year. We wish you a happy Christmas and a new year full of discoveries.
`,
  }),
  news({
    uid: 'surrey-baptism-index-released', date: '2026-01-21', tags: ['indexes', 'parish-registers'], picture: 'parish-register.svg',
    title: 'New parish register index: Surrey baptisms, 1538 to 1812',
    summary: 'The first part of our Surrey baptism index, with over 260,000 entries from 71 parishes, is now live.',
    body: `
The first part of our **Surrey baptism index** is now available to members in the research hub. It covers 71 parishes from the beginning of their registers — in a few cases 1538 — to 1812, when George Rose's Act introduced printed register books.

Each entry gives the child's name, the date of baptism, the parents' forenames and, where the register records them, the father's occupation and the family's abode. Entries link to the parish's coverage notes, which show exactly which years survive and which have been indexed.

The second part, covering 1813 to 1837, is being transcribed now. Volunteers are welcome: see [transcription volunteers](doc:transcription-volunteers).
`,
  }),
  news({
    uid: 'trustee-nominations-2026', date: '2026-02-24', tags: ['governance', 'agm'], picture: 'meeting.svg',
    title: 'Trustee nominations open',
    summary: 'Three places on the Board of Trustees are up for election at the 2026 AGM. Nominations close on 24 April.',
    body: `
Three elected trustees retire by rotation at this year's Annual General Meeting, and we invite members to nominate candidates for the vacancies.

We are especially keen to hear from members with experience of finance, fundraising or digital services. You do not need previous board experience: an induction and a mentor are offered to every new trustee.

Nominations must reach the Honorary Secretary by **Friday 24 April 2026**. See [nominations](doc:nominations) for how to nominate, and the [Board of Trustees](doc:board-of-trustees) page to find out who currently serves.
`,
  }),
  news({
    uid: 'annual-report-2025-published', date: '2026-03-31', tags: ['governance'], picture: 'library.svg',
    title: 'Annual report for 2025 published',
    summary: 'A record year for volunteering: more than 212,000 entries transcribed and two major indexes released.',
    body: `
Our [annual report and accounts for 2025](media:annual-report-2025.pdf) have been published. Highlights of the year include:

- membership growing to 4,812 members in 38 countries;
- more than 212,000 parish register entries transcribed by volunteers;
- 6,930 visitors to the library, and 41 talks and courses;
- the release of the Middlesex marriage index and the first part of the Surrey baptism index.

The report will be presented to members at the [Annual General Meeting](doc:annual-reports-and-agm) in June.
`,
  }),
  news({
    uid: 'agm-2026-notice', date: '2026-05-19', tags: ['agm', 'governance'], picture: 'meeting.svg',
    title: 'Notice of the 2026 Annual General Meeting',
    summary: 'The AGM will be held at 14:00 on Saturday 20 June 2026 at Lineage House and online.',
    body: `
Notice is hereby given that the Annual General Meeting of the Society will be held at **14:00 on Saturday 20 June 2026** at Lineage House and online.

The agenda includes the annual report and accounts for 2025, the election of three trustees and the appointment of auditors. Papers have been sent to all members. Members may vote in advance online or by post, or appoint a proxy.

Members attending in person are invited to stay for tea and a short talk by the Librarian on recent acquisitions. Register for the [AGM event](doc:agm-2026) to receive joining instructions for the online meeting.
`,
  }),
  news({
    uid: 'transcription-milestone-250000', date: '2026-06-30', tags: ['volunteering', 'indexes'], picture: 'family-group.svg',
    title: 'Volunteers pass 250,000 entries',
    summary: 'Our transcription volunteers have passed a quarter of a million entries in the Surrey baptism project.',
    body: `
Our volunteers passed a remarkable milestone this month: **250,000 entries** transcribed for the second part of the Surrey baptism index, only fifteen months after the project began.

More than 300 volunteers in eleven countries have taken part, from members in their first month to some who have been transcribing for the Society for over thirty years. Several volunteers told us that they found their own ancestors in the registers they were transcribing.

There is still plenty to do. If you can spare an hour a week, please [join us](doc:transcription-volunteers).
`,
    extra: [gallerySlice('From register to index', [
      ['parish-register.svg', 'A page from a baptism register, ready to transcribe'],
      ['family-group.svg', 'Families found in the registers'],
      ['family-tree.svg', 'Entries linked into family groups'],
    ])],
  }),
  news({
    uid: 'library-thursday-late-opening', date: '2026-09-15', tags: ['library'], picture: 'library.svg',
    title: 'Library opens late on Thursdays',
    summary: 'From 1 October the library will stay open until 20:00 every Thursday.',
    body: `
Following requests from members who work during the day, the library will **stay open until 20:00 every Thursday** from 1 October 2026.

The research room, microfilm readers and computers will all be available during the late opening, and a librarian will be on duty to help. Booking is not needed, but you can [book a seat](doc:booking-a-research-room-seat) if you wish.

Our other opening hours are unchanged.
`,
  }),
  news({
    uid: 'autumn-dna-talks-2026', date: '2026-10-27', tags: ['dna', 'talks', 'events'], picture: 'dna.svg',
    title: 'Autumn DNA talk series announced',
    summary: 'Three online talks on genetic genealogy, starting on 2 December with an introduction for beginners.',
    body: `
Our popular DNA talks return this winter with a series of three online evening talks:

1. **An introduction to DNA for family historians** — Wednesday 2 December 2026
2. **Using shared matches and clusters** — January 2027
3. **DNA and the one-name study** — February 2027

Each talk lasts about ninety minutes including questions, and recordings are available to members afterwards. Book the [first talk](doc:dna-introduction-december-2026) now.
`,
  }),
  news({
    uid: 'open-day-2027-announced', date: '2026-11-17', tags: ['events'], picture: 'church.svg',
    title: 'Family History Open Day 2027: save the date',
    summary: 'Our free open day returns on Saturday 22 May 2027, with talks, tours and help desks.',
    body: `
Put the date in your diary: our **Family History Open Day** returns on **Saturday 22 May 2027**.

The day is free and open to everyone. There will be short talks for beginners, behind-the-scenes tours of the library, "ask an expert" help desks, and stalls from county family history societies. Bring your brick walls, your old photographs and your questions.

Full details are on the [open day](doc:family-history-open-day-may-2027) page.
`,
  }),
];
