// About the Society, its organisation and governance, and the education area.
import { page } from './pages.mjs';
import { docLink, image, richTextSlice, heroSlice, gridSlice, gallerySlice, videoSlice } from './lib.mjs';

export const organisationPages = [
  page({
    uid: 'about', title: 'About the Society',
    description: 'Who we are: an educational charity helping people discover their family history since 1927.',
    parent: null, tags: ['about'], published: ['2025-01-06', '09:00'], updated: ['2026-04-07', '10:30'],
    body: [
      heroSlice({
        title: 'About the Society',
        text: 'We are an educational charity that helps people of every background discover, record and share their family history.',
        image: image('library.svg'),
        link: docLink('organisation'), linkLabel: 'How we are run',
      }),
      richTextSlice(`
The Society was founded in 1927 by a small group of antiquaries, record searchers and enthusiasts who believed that the records of ordinary families deserved the same care as those of the great houses. From a single bookcase in a member's front room it has grown into one of the largest genealogical libraries in the country, with a membership around the world.

## What we do

- We maintain a specialist **library** of printed and manuscript sources, indexes, family histories and periodicals, open to members and visitors.
- We create and publish **indexes and transcriptions** of records such as parish registers, memorial cards and monumental inscriptions, largely through the work of volunteers.
- We teach, through **talks, courses and workshops** in person and online, for beginners and experienced researchers alike.
- We help members directly, through research-room advice and a members' enquiry service.

## Our values

We believe family history is for everyone. We welcome researchers of every background, faith and nationality, and we work to make our collections accessible to people who cannot visit in person. We respect the privacy of living people and the integrity of the records in our care.

Read about [how the Society is organised](doc:organisation) or explore [our education programme](doc:education).
`),
    ],
  }),

  page({
    uid: 'organisation', title: 'Our organisation',
    description: 'How the Society is structured: trustees, committees, staff and volunteers.',
    parent: 'about', tags: ['about', 'governance'], published: ['2025-01-06', '09:10'], updated: ['2026-07-01', '09:00'],
    body: [
      richTextSlice(`
The Society is a charitable company limited by guarantee, registered in England and Wales. It is governed by a Board of Trustees elected by the members, and run day to day by a small staff team and several hundred volunteers.

## Trustees

The [Board of Trustees](doc:board-of-trustees) sets the Society's strategy, oversees its finances and makes sure it meets its charitable objects and its legal duties. Trustees are unpaid and serve terms of three years.

## Staff

The Chief Executive leads a staff team responsible for the library, education programme, membership services, digital services and finance.

## Volunteers

Volunteers are the heart of the Society. They transcribe and index records, staff the library welcome desk, answer enquiries, lead talks and conserve our collections. [Find out how to volunteer](doc:transcription-volunteers).
`),
      gridSlice('Governance and reporting', [
        { title: 'Governance', text: 'Our governing document, committees and how decisions are made.', link: docLink('governance') },
        { title: 'Society policies', text: 'The policies that guide our work, from privacy to safeguarding.', link: docLink('society-policies') },
        { title: 'Annual reports and AGM', text: 'Our annual reports and accounts, and papers for the Annual General Meeting.', link: docLink('annual-reports-and-agm') },
      ]),
    ],
  }),

  page({
    uid: 'governance', title: 'Governance',
    description: 'Our governing document, the Board of Trustees and its committees.',
    parent: 'organisation', tags: ['governance'], published: ['2025-01-06', '09:20'], updated: ['2026-02-24', '10:00'],
    body: [
      richTextSlice(`
## Governing document

The Society is governed by its Articles of Association, which set out its charitable objects: to promote, encourage and foster the study, science and knowledge of genealogy and family history, and to make its library and collections available for the public benefit. Changes to the Articles require a special resolution of the members at a general meeting.

## The Board

The [Board of Trustees](doc:board-of-trustees) has up to twelve members, of whom up to nine are elected by the members and up to three co-opted for particular skills. The Board meets at least five times a year. Each year one third of the elected trustees retire by rotation and may stand again. [Nominations](doc:nominations) are invited each spring.

## Committees

The Board delegates detailed work to four standing committees, each chaired by a trustee:

- **Finance and Audit** — budgets, investments, risk and the annual accounts;
- **Collections** — the library, acquisitions, conservation and digitisation;
- **Education** — the programme of talks, courses and publications;
- **Membership and Volunteering** — services to members and support for volunteers.

## Members' meetings

Every member is entitled to attend, speak and vote at the [Annual General Meeting](doc:annual-reports-and-agm), which receives the annual report and accounts, elects trustees and appoints the auditors.
`),
    ],
  }),

  page({
    uid: 'board-of-trustees', title: 'Board of Trustees',
    description: 'The members of the Society elected and co-opted to its Board of Trustees.',
    parent: 'governance', tags: ['governance'], published: ['2025-01-06', '09:30'], updated: ['2026-06-22', '11:00'],
    body: [
      richTextSlice(`
The trustees are the Society's directors and charity trustees. They are unpaid volunteers drawn from the membership, and bring experience of genealogy, archives, education, law, finance and digital services.

## Officers

- **Chair** — Dr Margaret Ellison
- **Vice-Chair** — Rajesh Patel
- **Honorary Treasurer** — Catherine Holt FCA
- **Honorary Secretary** — Owen Pritchard

## Trustees

- Dr Fiona MacLeod (chair, Collections Committee)
- Samuel Adeyemi (chair, Membership and Volunteering Committee)
- Helen Kowalski (chair, Education Committee)
- Thomas Bright
- Aisling Byrne (co-opted, digital services)

Trustees serve for three years and may stand for re-election. Declarations of interests are kept by the Honorary Secretary and are available to members on request.

To write to the Board, contact the Honorary Secretary at the Society's address. To stand for election, see [nominations](doc:nominations).
`),
    ],
  }),

  page({
    uid: 'nominations', title: 'Nominations',
    description: 'How members can nominate candidates for election to the Board of Trustees.',
    parent: 'governance', tags: ['governance', 'agm'], published: ['2025-02-17', '10:00'], updated: ['2026-02-24', '10:05'],
    body: [
      richTextSlice(`
Each year one third of the elected trustees retire by rotation, and members are invited to nominate candidates for the vacancies. Elections take place at the [Annual General Meeting](doc:annual-reports-and-agm).

## Who can stand

Any member of the Society aged 18 or over who has been a member for at least one year may stand, provided they are not disqualified from acting as a charity trustee or company director.

## How to nominate

1. Download or request a nomination form from the Honorary Secretary.
2. The form must be signed by the candidate and by a proposer and a seconder, both of whom must be members.
3. Add a statement of no more than 250 words about the candidate's experience and what they would bring to the Board.
4. Return the form to the Honorary Secretary by the closing date announced in the notice of the AGM, normally eight weeks before the meeting.

## What happens next

If there are more candidates than vacancies, a ballot is held, and members may vote in advance online or by post, or in person at the meeting. Candidates' statements are published with the AGM papers.

We particularly welcome candidates with experience of finance, law, fundraising and digital services, and candidates who would help the Board reflect the diversity of our members. If you are thinking of standing, the Chair or the Honorary Secretary will be happy to talk to you about what is involved.
`),
    ],
  }),

  page({
    uid: 'society-policies', title: 'Society policies',
    description: 'The policies that govern the Society’s work, collections and relations with members and volunteers.',
    parent: 'organisation', tags: ['governance', 'policies'], published: ['2025-01-06', '09:40'], updated: ['2026-09-01', '09:00'],
    body: [
      richTextSlice(`
Our policies are approved by the Board of Trustees and reviewed at least every three years. Copies of any policy are available from the Honorary Secretary.

## Privacy

We collect and use members' and visitors' personal data only for the purposes for which it was given, keep it securely and never sell it. Members' research interests are published in the members' interests directory only with their consent.

## Living people

We do not publish information about living people in our indexes or on our website without their consent. Family trees deposited with the Society are made available with the details of living individuals withheld.

## Safeguarding

We are committed to the safety of children and adults at risk who take part in our activities, including young people on work experience and volunteers. Concerns should be reported to our designated safeguarding lead.

## Equality, diversity and inclusion

We welcome members, visitors, volunteers and staff of every background, and work to remove barriers to our collections and events.

## Collections development

We collect printed, manuscript and digital material relating to genealogy and family history in the British Isles and among British and Irish communities overseas. We accept deposits of family papers and research where they complement our collections.

## Complaints

If you are unhappy with any aspect of our service, please tell us. We aim to acknowledge complaints within five working days and respond in full within twenty.

## Conflicts of interest

Trustees, committee members and staff declare any interest that might conflict with the Society's interests, and take no part in decisions where such a conflict arises.
`),
    ],
  }),

  page({
    uid: 'annual-reports-and-agm', title: 'Annual reports and AGM',
    description: 'The Society’s annual reports and accounts, and information about the Annual General Meeting.',
    parent: 'organisation', tags: ['governance', 'agm'], published: ['2025-01-06', '09:50'], updated: ['2026-06-22', '11:30'],
    body: [
      richTextSlice(`
## Annual General Meeting

The Annual General Meeting is held each June. The 2026 AGM took place on Saturday 20 June 2026 at Lineage House, with members also able to join online; the minutes will be presented for approval at the 2027 meeting. Notice of the 2027 AGM, with the agenda and papers, will be sent to all members at least 21 clear days before the meeting.

At the AGM members receive the annual report and accounts, elect trustees, appoint the auditors and may put questions to the Board. Members who cannot attend may appoint a proxy.

## Annual reports and accounts

- [Annual report and accounts 2025](media:annual-report-2025.pdf) (PDF)
- Annual report and accounts 2024 — available on request from the Honorary Secretary

Our accounts are prepared in accordance with the Charities SORP and are filed with the Charity Commission and Companies House.

## Highlights of 2025

- Membership grew to 4,812 members in 38 countries.
- Volunteers transcribed more than 212,000 parish register entries.
- The library welcomed 6,930 visitors, and we ran 41 talks and courses.
- We released the [Middlesex marriage index](doc:middlesex-marriage-index-released) and began the Surrey baptism index.
`),
    ],
  }),

  page({
    uid: 'education', title: 'Education',
    description: 'Courses, talks, workshops and online learning for family historians of every level.',
    parent: null, tags: ['education', 'learning'], published: ['2025-01-06', '10:00'], updated: ['2026-10-27', '12:00'],
    body: [
      heroSlice({
        title: 'Learn with the Society',
        text: 'From your first steps to professional-level palaeography, our tutors and librarians will help you get more from your research.',
        image: image('meeting.svg'),
        link: docLink('beginners-course-tracing-your-family-history'), linkLabel: 'Start with our beginners’ course',
      }),
      richTextSlice(`
Our education programme runs throughout the year, in the lecture room at Lineage House and online. Members receive discounted places on every course, and recordings of many talks are available in the members' area.

## Learning hub

The learning hub brings together our featured courses, [guides](doc:guides) to the major record sources and short [hints and tips](doc:hints-tips).
`),
      gridSlice('Featured learning', [
        { title: 'Tracing your family history', text: 'A six-week course for complete beginners.', image: image('family-tree.svg'), link: docLink('beginners-course-tracing-your-family-history') },
        { title: 'Reading old handwriting', text: 'Palaeography for family historians, from secretary hand to copperplate.', image: image('handwriting.svg'), link: docLink('reading-old-handwriting') },
        { title: 'DNA for family historians', text: 'Understand your matches and use them to solve brick walls.', image: image('dna.svg'), link: docLink('dna-for-family-historians') },
        { title: 'Exploring the 1921 census', text: 'What the newest census reveals, and how to search it.', image: image('census-form.svg'), link: docLink('exploring-the-1921-census') },
        { title: 'Parish registers explained', text: 'Baptisms, marriages and burials from 1538 to the present.', image: image('parish-register.svg'), link: docLink('parish-registers-explained') },
      ]),
      videoSlice('Watch a recent talk'),
      gallerySlice('Learning at Lineage House', [
        ['meeting.svg', 'A Saturday talk in the lecture room'],
        ['library.svg', 'The reading room, where course members practise with original sources'],
        ['handwriting.svg', 'Palaeography workshop materials'],
      ]),
    ],
  }),
];
