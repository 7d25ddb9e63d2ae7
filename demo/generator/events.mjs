// `event` documents: past and upcoming Society events in 2026 and 2027, and the
// `page` that /sog-events/join shows (uid sog-events-join).
import { document, image, londonTime, rt, richTextSlice, heroSlice, gridSlice, docLink } from './lib.mjs';
import { page } from './pages.mjs';

const LINEAGE_HOUSE = 'Lineage House, 27 Archive Lane, London EC1';

const event = ({ uid, title, summary, day, from, to, location, picture, tags = [], published, body, hero }) =>
  document({
    type: 'event',
    uid,
    tags: ['events', ...tags],
    published,
    data: {
      title: rt(`# ${title}`),
      summary: rt(summary),
      start: londonTime(day, from),
      end: londonTime(day, to),
      location,
      body: [
        ...(hero ? [heroSlice({ title, text: summary, image: image(picture), link: hero.link, linkLabel: hero.label })] : []),
        richTextSlice(body),
      ],
    },
  });

export const events = [
  event({
    uid: 'beginners-day-march-2026', day: '2026-03-14', from: '10:00', to: '16:00', location: LINEAGE_HOUSE,
    picture: 'family-tree.svg', tags: ['beginners'], published: ['2026-01-20', '10:00'],
    title: 'Getting started in family history: a beginners’ day',
    summary: 'A friendly, practical day for anyone starting to trace their family history.',
    body: `
Spend a Saturday with our tutors and librarians and leave with a plan for your research.

## Programme

- 10:00 Welcome and introductions
- 10:15 Where to begin: yourself, your relatives and the papers in the house
- 11:30 Birth, marriage and death certificates
- 13:30 Finding families in the census
- 14:45 Hands-on session in the library, with volunteers on hand to help
- 16:00 Close

Lunch is not provided, but there are many cafés nearby. Please bring what you already know about your family. Read our guide on [how to start your family tree](doc:how-to-start-your-family-tree) before you come.
`,
  }),
  event({
    uid: 'agm-2026', day: '2026-06-20', from: '14:00', to: '16:30', location: `${LINEAGE_HOUSE}, and online`,
    picture: 'meeting.svg', tags: ['agm', 'governance'], published: ['2026-05-19', '09:35'],
    title: 'Annual General Meeting 2026',
    summary: 'The Society’s Annual General Meeting, followed by tea and a talk on recent acquisitions.',
    body: `
All members are welcome to attend the Annual General Meeting in person or online. The formal business will be followed by tea and a short illustrated talk by the Librarian on the year's most interesting acquisitions.

Papers and the agenda are in the [notice of the AGM](doc:agm-2026-notice). Members joining online will receive a link by email the day before the meeting.
`,
  }),
  event({
    uid: 'palaeography-workshop-october-2026', day: '2026-10-10', from: '10:30', to: '15:30', location: LINEAGE_HOUSE,
    picture: 'handwriting.svg', tags: ['palaeography'], published: ['2026-08-04', '11:00'],
    title: 'Palaeography workshop: reading Tudor and Stuart documents',
    summary: 'A hands-on workshop on secretary hand, with facsimiles of wills, inventories and parish registers.',
    body: `
Secretary hand, used in most English documents between about 1550 and 1700, can look impenetrable at first. In this workshop you will learn its letter forms and common abbreviations, then practise on facsimiles of wills, probate inventories and parish registers.

The workshop is suitable for those who have attended an introductory course or who have some experience of reading older documents. Numbers are limited to sixteen. It complements our course on [reading old handwriting](doc:reading-old-handwriting).
`,
  }),
  event({
    uid: 'dna-introduction-december-2026', day: '2026-12-02', from: '19:00', to: '20:30', location: 'Online',
    picture: 'dna.svg', tags: ['dna', 'talks', 'online'], published: ['2026-10-27', '09:40'],
    title: 'An introduction to DNA for family historians',
    summary: 'The first of three online winter talks on genetic genealogy: what the tests are and what they can tell you.',
    hero: { link: docLink('dna-for-family-historians'), label: 'Our full DNA course' },
    body: `
Which test should you take, and what can you do with the results? This talk explains the three main kinds of DNA test used by family historians, how testing companies estimate relationships, and how to start working with your match list.

The talk lasts about ninety minutes including questions. Joining instructions will be emailed to everyone who books. A recording will be available to members afterwards.
`,
  }),
  event({
    uid: 'researching-london-ancestors-february-2027', day: '2027-02-13', from: '10:30', to: '16:00', location: LINEAGE_HOUSE,
    picture: 'county-map.svg', tags: ['london'], published: ['2026-11-10', '10:00'],
    title: 'Researching London ancestors',
    summary: 'A day of talks on the records of the capital, from parish registers to the Old Bailey.',
    body: `
London was home to millions of our ancestors, many of them only briefly. This day of talks will help you find them.

## Talks

1. London parish registers and how to navigate them
2. The poor law and the workhouse in London
3. Livery companies, apprentices and the freedom of the City
4. Crime, courts and the Old Bailey Proceedings

Each talk includes time for questions. Read our [London research](doc:london-research) tips in advance.
`,
  }),
  event({
    uid: 'family-history-open-day-may-2027', day: '2027-05-22', from: '10:00', to: '17:00', location: LINEAGE_HOUSE,
    picture: 'church.svg', tags: ['open-day'], published: ['2026-11-17', '09:35'],
    title: 'Family History Open Day 2027',
    summary: 'A free day of talks, library tours and expert help desks for everyone interested in family history.',
    hero: { link: docLink('education'), label: 'See our courses' },
    body: `
Our open day is free and open to everyone — members, visitors and the simply curious.

- Short talks throughout the day for beginners and improvers
- Behind-the-scenes tours of the library and the conservation studio
- "Ask an expert" help desks for your brick walls
- Help identifying and dating old photographs
- Stalls from county family history societies and specialist groups

No booking is needed for the open day itself, but tours are limited and can be reserved on the day at the welcome desk.
`,
  }),
];

/** How to join an event and the Society: the page at /sog-events/join. */
export const eventsJoinPage = page({
  uid: 'sog-events-join', title: 'How to join an event',
  description: 'Booking a place at a talk, course or open day, joining online events, getting to Lineage House, and becoming a member.',
  parent: null, tags: ['events', 'membership'], published: ['2026-01-12', '10:00'], updated: ['2026-10-27', '10:00'],
  body: [
    richTextSlice(`
Everyone is welcome at our events, whether or not you are a member of the Society. This page explains how to book, how to join an event online, and how to find us.

## Booking a place

- **Talks and courses** must be booked in advance, because places are limited. Book at the library welcome desk or by telephone during opening hours.
- **Members** book free of charge for most talks, and at a reduced price for courses and workshops.
- **Visitors** pay a small fee, which is set against the cost of membership if you join within a month.
- **Open days** need no booking, although tours of the library fill up quickly and are reserved on the day.

If you can no longer come, please tell us as soon as you can so that we can offer your place to someone on the waiting list.

## Joining an event online

Online talks take place on a video-meeting service that works in a web browser, on a tablet or on a telephone; you do not need to install anything. Joining instructions are emailed the day before the event to everyone who has booked. Arrive a few minutes early so that we can help if your sound or picture does not work. Recordings of most talks are available to members afterwards.

## Coming to Lineage House

Lineage House is at 27 Archive Lane, London EC1, five minutes' walk from the nearest Underground station. The lecture room and the library are on the ground floor and there is step-free access throughout, an accessible toilet and a hearing loop in the lecture room. Please tell us when you book if you need any other help to take part.

## Becoming a member

Membership of the Society gives you free entry to most talks, reduced prices for courses, free use of the library and the research hub, and the Society's journal. You can join at the welcome desk on the day of any event. New members are invited to one of our [welcome evenings](doc:new-members-welcome-evenings).
`),
    gridSlice('Before you come', [
      { title: 'Our next online talk', text: 'An introduction to DNA for family historians, from your own home.', link: docLink('dna-introduction-december-2026') },
      { title: 'Start your family tree', text: 'Read our guide before a beginners’ event.', link: docLink('how-to-start-your-family-tree') },
      { title: 'Book a research-room seat', text: 'Make a day of it: stay on to research in the library.', link: docLink('booking-a-research-room-seat') },
    ]),
  ],
});
