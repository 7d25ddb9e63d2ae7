// Learning pages: the /learn section, its guides and its hints and tips.
import { page } from './pages.mjs';
import { docLink, image, richTextSlice, heroSlice, gridSlice } from './lib.mjs';

const guide = (uid, title, description, published, updated, body) =>
  page({ uid, title, description, parent: 'guides', tags: ['guide', 'learning'], published, updated, body });
const tip = (uid, title, description, published, updated, body) =>
  page({ uid, title, description, parent: 'hints-tips', tags: ['hints-tips', 'learning'], published, updated, body });

export const guides = [
  guide('how-to-start-your-family-tree', 'How to start your family tree',
    'A step-by-step guide to beginning your family history research, from talking to relatives to your first records.',
    ['2025-01-08', '10:00'], ['2026-02-03', '11:20'], [
    heroSlice({
      title: 'How to start your family tree',
      text: 'Every family tree starts with one person: you. This guide takes you from what you already know to the first generations you will find in the records.',
      image: image('family-tree.svg'),
    }),
    richTextSlice(`
## Begin with yourself

Genealogy works backwards, one generation at a time, from the known to the unknown. Start with your own birth, then your parents' births and marriage, then your grandparents'. Write down full names, dates and places for each event, and note where each piece of information came from — a certificate, a family Bible, or simply "Mum's memory, 2025".

It is tempting to begin with a famous ancestor who shares your surname and work forwards, but this is the most common way that family trees go wrong. Working backwards means every link in the chain rests on evidence.

## Talk to your relatives

Your older relatives are your most precious and most perishable source. Ask them about names, places, occupations, family stories and any papers or photographs they hold. Record conversations (with permission) or take careful notes, and ask open questions: "What do you remember about your grandmother's house?" often produces more than "When was she born?"

Family stories usually contain a kernel of truth, but details drift with each retelling. Treat a story that "we are descended from a French count" as a clue to be tested, not a fact.

## Gather the papers in the house

Look for birth, marriage and death certificates, baptism and confirmation cards, wills, letters, diaries, school reports, military service papers, insurance policies, funeral cards, newspaper cuttings and, of course, photographs. Write names and dates on the back of photographs in soft pencil while someone still knows who is in them.

## Record what you find

Use a pedigree chart to see each direct line at a glance and a family group sheet for each couple and their children. Genealogy software or an online tree keeps this tidy, but keep your own copy of your data — online services change and close. Record your **sources** for every fact from the very first day; it is much harder to go back and find them later.

## Your first records

Once you have reached people born before about 1920, the main national records come into play:

- [Civil registration certificates](doc:how-to-search-for-birth-marriage-and-death-certificates-1) of births, marriages and deaths, from 1 July 1837 in England and Wales, 1855 in Scotland and 1864 in Ireland.
- The [census returns](doc:how-to-use-census-records), taken every ten years from 1841 to 1921 and open to the public after a hundred years.
- [Wills and probate records](doc:how-to-use-probate-records), which can reveal family relationships no other record mentions.
- Church of England parish registers of baptisms, marriages and burials, which take most families back to the 1700s and often earlier.

## Work methodically

Set yourself a clear question for each research session, such as "Who were the parents of Thomas Cooper, born about 1849 in Diss?" Search for the answer, record what you found and what you searched without success, and only then move on. Negative results are valuable: they stop you searching the same index twice.

## Get help

You do not have to do this alone. Our library, [talks and courses](doc:education) and volunteers are there to help, and our [hints and tips](doc:hints-tips) cover many common problems. Members can also ask for advice in the research room.
`),
  ]),

  guide('how-to-use-census-records', 'How to use census records',
    'What the censuses of 1841 to 1921 recorded, how to search them and how to get the most out of each entry.',
    ['2025-01-08', '10:30'], ['2025-11-18', '15:05'], [
    richTextSlice(`
## Why the census matters

A census return is a snapshot of a household on a single night. Because the census was taken every ten years, you can follow a family through several snapshots: children appear and leave home, widows move in with married daughters, and occupations change. For many people the census is the only record that shows where and with whom they lived.

## What survives, and when it was taken

In England and Wales a census has been taken every ten years since 1801, except in 1941. The returns for 1801 to 1831 were mainly head counts and rarely name individuals. The surviving name-by-name returns, held by The National Archives, are:

- 1841 (6 June) — HO 107
- 1851 (30 March) — HO 107
- 1861 (7 April) — RG 9
- 1871 (2 April) — RG 10
- 1881 (3 April) — RG 11
- 1891 (5 April) — RG 12
- 1901 (31 March) — RG 13
- 1911 (2 April) — RG 14
- 1921 (19 June) — RG 15

The 1931 census for England and Wales was destroyed by fire in 1942, and no census was taken in 1941 because of the war. The 1939 Register, compiled on 29 September 1939 for identity cards and rationing, partly fills the gap.

![An enumerator's book for a Victorian census](census-form.svg)

## What each census tells you

The **1841** census gives names, ages, occupations and whether a person was born in the same county. Ages of people over fifteen were usually rounded down to the nearest five years, so a "30" could be anything from 30 to 34. Relationships are not stated.

From **1851** the returns give each person's relationship to the head of household, marital condition, exact age, occupation and parish and county of birth. This makes 1851 the key census for moving back into the parish registers of the 1700s.

The **1911** census is the first where the householder's own schedule survives, often in your ancestor's handwriting. It also asked married women how many years they had been married and how many children had been born alive, were still living and had died. The **1921** census added the name of each worker's employer and place of work.

## Searching the census

Indexes to every census from 1841 to 1921 are available online through the major commercial websites, and free volunteer transcriptions for many counties are on FreeCEN. Indexes were made by people reading difficult handwriting, so:

- search with only a surname, a rough year of birth and a county before adding more detail;
- try variant spellings, and forenames that were written down as abbreviations, such as *Wm*, *Thos* or *Jno*;
- widen the year of birth by five years either side, because ages were often misreported;
- if a family is missing, search for a child with an unusual forename instead of the head of household.

## Reading the entry

Always look at the image of the original page, not just the transcription. Read the pages before and after: relatives often lived next door. Note the *enumeration district* description at the start of each book, which tells you exactly which streets were covered. "Do." means ditto; a short double stroke marks the end of a household, and a longer line the end of a building.

People who were away from home on census night appear where they were: in a workhouse, hospital, prison, barracks, boarding school or on board ship. If a husband is missing, check whether his wife is described as a "mariner's wife" or similar.

## Beyond England and Wales

Scottish census returns from 1841 to 1921 are on ScotlandsPeople. In Ireland, the 1901 and 1911 censuses survive in full and can be searched free online, but almost all the nineteenth-century returns were destroyed.
`),
  ]),

  guide('how-to-use-probate-records', 'How to use probate records',
    'Wills and administrations before and after 1858: which court, which index, and what to look for in the documents.',
    ['2025-02-11', '09:45'], ['2026-01-27', '14:40'], [
    richTextSlice(`
## Why look for a will?

A will can name children, grandchildren, married daughters under their new surnames, siblings and in-laws, and describe property in detail. Even when a will says nothing surprising, the probate process leaves a dated record of death and of the people entrusted with the estate. Fewer people made wills than you might expect — mostly those with property to leave — but it is always worth checking, whatever your ancestors' station in life.

## Wills and administrations

A **will** sets out a person's wishes; it only takes effect once it has been *proved* in a court, which grants **probate** to the executors. When someone died without a will (intestate), the court could grant **letters of administration** (often shortened to *admon*) to the next of kin. An administration usually tells you less than a will, but it still records the date of the grant and the administrator's name and relationship.

## From 12 January 1858: the civil courts

On 12 January 1858 responsibility for probate in England and Wales passed from the church courts to a new civil Court of Probate. All grants since then are indexed in the **National Probate Calendar**, an annual, alphabetical list. A calendar entry typically gives:

- the name, address and date of death of the deceased;
- the date and place of the grant, and whether it was probate or administration;
- the names of the executors or administrators, often with their relationship;
- the value of the estate.

You can search the calendar and order copies of wills through the government's online probate search service. Scanned calendars for 1858 to 1995 can also be browsed on one of the major commercial websites.

## Before 1858: the church courts

Before 1858, wills were proved in more than two hundred church courts. Which court was used depended mainly on where the deceased held property:

1. property within one archdeaconry — usually the archdeacon's court;
2. property in more than one archdeaconry of the same diocese — the bishop's consistory court;
3. property in more than one diocese — the **Prerogative Court of Canterbury** (PCC) in the south, or the Prerogative Court of York in the north.

The PCC was the senior court, and wealthier testators, and many people with property in London or who died abroad or at sea, used it. PCC wills from 1384 to 1858 are at The National Archives in series PROB 11, and you can [download them as digital images](doc:finding-and-downloading-pcc-wills-from-the-national). Wills proved in the lower courts are usually held by the county record office for the diocese.

## Reading the documents

Early wills are written in secretary hand and can be hard to read; our [palaeography workshops](doc:reading-old-handwriting) will help. Legal records were kept in Latin until 1733, so the probate clause at the end of an older will is often in Latin even when the will itself is in English. Look especially for:

- the names of all beneficiaries and how they are related;
- the phrase "my now wife", which can hint at an earlier marriage;
- property described in detail, which leads to land and manorial records;
- inventories of goods, common before about 1750, which describe every room in a house.

## Other probate records

The Death Duty Registers (IR 26) at The National Archives, covering 1796 to 1903, can show what was actually paid to whom. In Scotland, wills and inventories are called *testaments* and are searchable on ScotlandsPeople. Many Irish probate records were destroyed in 1922, but copies, will books and calendars survive for much of the period after 1858.
`),
  ]),

  guide('how-to-search-for-birth-marriage-and-death-certificates-1',
    'How to search for birth, marriage and death certificates — part 1: the indexes',
    'How civil registration works in England and Wales and how to find the right entry in the national indexes.',
    ['2025-03-04', '10:15'], ['2026-03-10', '09:50'], [
    richTextSlice(`
## Civil registration

Civil registration of births, marriages and deaths began in England and Wales on **1 July 1837**. The country was divided into registration districts, largely following the poor-law unions, each with a superintendent registrar. Local registrars recorded each event, and copies of their registers were sent every three months to the General Register Office (GRO) in London, which compiled national indexes. Scotland began civil registration on 1 January 1855 and Ireland on 1 January 1864 (non-Catholic marriages in Ireland from 1845).

This guide explains how to find an entry in the indexes. [Part 2](doc:how-to-search-for-birth-marriage-and-death-certificates-2) explains how to order a certificate and what it will tell you.

## How the GRO indexes are arranged

From 1837 to 1983 the national indexes are quarterly: each year has four volumes for births, four for marriages and four for deaths, named after the month in which the quarter ended — March, June, September and December. An event is indexed in the quarter in which it was **registered**, not the quarter in which it happened. Parents had six weeks to register a birth, so a baby born in late March may well appear in the June quarter.

Each index entry gives:

- surname and forenames;
- the registration district;
- a volume and page number.

Over time more information was added. From the September quarter of 1911 the birth index gives the mother's maiden surname; from 1866 the death index gives the age at death; and from 1912 the marriage index gives the surname of the spouse. From 1984 the indexes are annual and arranged by computer.

## Where to search

- **FreeBMD** is a free volunteer transcription of the GRO indexes, complete for most of the period from 1837 to the mid-twentieth century. It lets you search by district and, for marriages, see who else is recorded on the same page — usually the spouse.
- The **GRO's own online index** was newly compiled from the registers. For its historic births it gives the mother's maiden surname right back to 1837, and for its deaths the age at death; this is invaluable for telling apart two children of the same name.
- The commercial websites have their own copies of the quarterly indexes.

## Search tips

1. Start with a wide date range: at least two years either side of the date you expect.
2. Try spelling variants: registrars wrote what they heard, and indexers read what they could.
3. Remember that a child could be registered before being named; such entries appear as *Male* or *Female* at the end of the surname list.
4. Check the registration district against a map: places often lie in a district named after a different town.
5. For marriages, look for both parties on the same volume and page.

If you cannot find an entry, the event may have been registered late, under a different name, or — especially before 1875, when penalties for failing to register a birth were tightened — not at all.
`),
  ]),

  guide('how-to-search-for-birth-marriage-and-death-certificates-2',
    'How to search for birth, marriage and death certificates — part 2: ordering and reading certificates',
    'How to order certificates from the GRO or a local register office, and what each certificate tells you.',
    ['2025-03-04', '10:20'], ['2026-03-10', '09:55'], [
    richTextSlice(`
## Ordering a certificate

Once you have found an index entry (see [part 1](doc:how-to-search-for-birth-marriage-and-death-certificates-1)), you can order a copy of the register entry. There are two routes:

- **From the General Register Office.** Order online, quoting the year, quarter, district, volume and page. The GRO also offers cheaper PDF copies of many historic birth and death entries, which are ideal for research.
- **From the local register office** for the district. Local offices hold the original registers and have their own indexes; their reference numbers differ from the GRO's, so quote names, dates and places rather than the GRO volume and page.

Fees and delivery times change from time to time, so check the current details before ordering. A certificate is a certified copy: for research, a PDF or an uncertified copy tells you exactly the same.

## What a birth certificate tells you

![A Victorian birth certificate](certificate.svg)

- when and where the child was born (a time of birth usually indicates a multiple birth);
- the child's name and sex;
- the father's name and occupation (often blank if the parents were not married);
- the mother's name and **maiden surname**;
- the informant's name, description and address;
- the date of registration and the registrar's name.

## What a marriage certificate tells you

Marriage entries give the date and place of marriage, the names, ages and marital condition of both parties, their occupations and residences at the time, the names and occupations of both fathers, the names of witnesses, and whether the marriage was by banns, licence or certificate. "Full age" simply means 21 or over. A father's name is sometimes given even when he had died, occasionally marked "deceased". Witnesses are often siblings or cousins, so note them carefully.

## What a death certificate tells you

Death entries give when and where the person died, name, sex, age, occupation, cause of death, and the informant's name, description and address. From 1969 they also give date and place of birth and, for married women, maiden surname. Remember that the informant may not have known the deceased's age or parents' names accurately.

## Weighing the evidence

A certificate records what an informant told a registrar on one day. Ages at marriage were sometimes adjusted, a stepfather's surname might be given as the father's, and illegitimate births were sometimes disguised. Compare each certificate with the census and parish registers before you accept it. Our [hints on reports](doc:writing-genealogical-reports) explain how to record conflicting evidence.
`),
  ]),
];

export const hintsTips = [
  tip('top-10-tips-for-starting-your-family-history', 'Top 10 tips for starting your family history',
    'Ten habits that save beginners months of wasted effort.', ['2025-01-15', '12:00'], ['2025-09-02', '10:10'], [
    richTextSlice(`
Whether you are just starting or returning to research after a break, these ten habits will save you time and keep your tree accurate.

1. **Start with yourself and work backwards.** Prove each generation before moving to the next.
2. **Talk to older relatives now.** Their memories are irreplaceable.
3. **Write down your sources** for every name, date and place, from the very first day.
4. **Look at the original record**, not only an index or transcription.
5. **Expect spelling variants.** Spelling was not fixed until the late nineteenth century, and clerks wrote what they heard.
6. **Be sceptical of online trees.** Use them as clues, never as proof.
7. **Record negative searches.** Knowing where a person is *not* is as useful as knowing where they are.
8. **Learn the local history.** Parish boundaries, industries and migration explain many puzzles.
9. **Organise as you go.** One folder, paper or digital, per family, and a consistent way of naming files.
10. **Ask for help.** Join a society, come to a talk, and share your brick walls — someone may already have climbed them.

Ready to begin? Read our guide on [how to start your family tree](doc:how-to-start-your-family-tree).
`),
  ]),

  tip('genealogy-or-family-history', 'Genealogy or family history?',
    'Two words that are often used interchangeably, and why the difference matters.', ['2025-02-05', '11:00'], null, [
    richTextSlice(`
The words *genealogy* and *family history* are often used as if they meant the same thing, and most researchers do both. It is still worth knowing the difference.

## Genealogy

Genealogy is the study of descent: establishing who was the child of whom, with names, dates and places, and proving each link with evidence. A genealogist's output is typically a pedigree or a descendant chart, backed by careful citations. Genealogy is the skeleton of your research, and it must be sound before anything else is built on it.

## Family history

Family history puts flesh on the bones. It asks how your ancestors lived: what work they did, where they worshipped, what they earned, how they were affected by enclosure, industrialisation, war or emigration. It draws on a far wider range of sources — newspapers, estate papers, school records, trade directories, maps and local histories — and often produces a written narrative rather than a chart.

## Why it matters

A family history built on a wrong genealogy is a beautiful story about somebody else's ancestors. Equally, a bare pedigree of names and dates misses most of what makes research rewarding. Prove the links first, then explore the lives.

Our [beginners' course](doc:beginners-course-tracing-your-family-history) covers both, and our guide to [writing genealogical reports](doc:writing-genealogical-reports) shows how to present your findings.
`),
  ]),

  tip('how-to-get-the-best-results-from-familysearch', 'How to get the best results from FamilySearch',
    'Search strategies, the catalogue and the research wiki: getting more from the largest free genealogy website.',
    ['2025-04-02', '14:00'], ['2026-05-12', '16:30'], [
    richTextSlice(`
FamilySearch, run by the Church of Jesus Christ of Latter-day Saints, is the largest free genealogy website in the world. You need a free account to see most records. Its indexes are only the visible tip: millions of images have never been indexed at all.

## Search little, then more

The search form invites you to fill in every box. Resist. Start with a name, an approximate year and a place, and add more only if there are too many results. Use the **exact** tick boxes sparingly; they exclude the variant spellings that are often exactly what you need.

## Wildcards

You can use \\* to stand for any number of letters and ? for a single letter, so *Coop\\** finds both Cooper and Coope, and *Co?per* finds both Cooper and Cowper. Wildcards are a quick way to cover spelling variants.

## Search one collection at a time

Results from all collections are mixed together. If you know which record you want, such as a particular county's parish registers, open the list of collections, filter by place, and search that collection alone. The collection's description tells you what years and parishes it covers — and what it does not.

## Use the catalogue for images that are not indexed

The FamilySearch Catalogue lists everything that has been filmed or imaged, arranged by place. Search it for your parish or town and look for a camera icon, which means the images can be viewed online. Browsing images page by page is slow, but it is how you find records that no index contains. Some images are restricted and can only be viewed at a FamilySearch centre or an affiliate library.

## Try full-text search

FamilySearch is using handwriting recognition to make the text of documents such as deeds and wills searchable. Coverage is still patchy and the machine transcriptions contain errors, but it can find a name buried in a document that was never indexed.

## Treat the shared tree with caution

FamilySearch's Family Tree is a single collaborative tree that anyone can edit. It can be a useful source of clues, but check every fact against the records before adopting it.

## Read the wiki

The FamilySearch Research Wiki has an article for almost every county and country, explaining what records exist and where to find them. It is one of the best places to start researching a new area. For the older index of parish register entries, see our tips on [the IGI](doc:how-to-get-the-best-results-from-the-igi).
`),
  ]),

  tip('how-to-get-the-best-results-from-the-igi', 'How to get the best results from the IGI',
    'What the International Genealogical Index is, what it is not, and how batch numbers can help.',
    ['2025-04-16', '14:00'], null, [
    richTextSlice(`
The International Genealogical Index (IGI) was compiled by the Church of Jesus Christ of Latter-day Saints from the 1960s onwards and for decades was the first stop for anyone tracing English ancestors before 1837. It is now part of FamilySearch, but its strengths and weaknesses still matter.

## Two kinds of entry

The IGI mixes two very different sources:

- **extracted entries**, copied systematically from parish registers and other records by trained volunteers, mainly baptisms and marriages;
- **submitted entries**, sent in by individual church members about their own ancestors, which may be accurate, guesswork or wrong.

On today's FamilySearch, most extracted entries appear in collections with names such as *England Births and Christenings, 1538–1975* and *England Marriages, 1538–1973*. Submitted entries are kept separately as community-contributed material. Always know which kind you are looking at.

## What it does not cover

The IGI never covered every parish, and for many parishes it covers only some years. It contains very few burials, so a baby baptised and buried within weeks will look like a perfectly good ancestor. Nonconformist records are included only in part.

## Batch numbers

Each extracted entry came from a batch — one register or part of a register — identified by a batch number such as C012345 for christenings or M012345 for marriages. Searching by batch number shows every entry from the same source, which lets you:

- see all the children baptised to one couple in that parish;
- check whether a register has been indexed for the years you need;
- spot gaps in the coverage.

## Always check the register

The IGI is an index, not the record. Look at the parish register itself, on film, online or at the county record office, to confirm the entry and to see any details the index omitted, such as the father's occupation or the family's abode.
`),
  ]),

  tip('finding-and-downloading-pcc-wills-from-the-national', 'Finding and downloading PCC wills from The National Archives',
    'How to search for Prerogative Court of Canterbury wills in Discovery and download the register copies.',
    ['2025-05-07', '10:00'], ['2025-12-09', '12:15'], [
    richTextSlice(`
Wills proved in the Prerogative Court of Canterbury (PCC) between 1384 and 1858 are held by The National Archives at Kew. The registered copies, in series PROB 11, have been digitised and can be downloaded from the archives' online catalogue, Discovery.

## Searching

1. Open Discovery and choose the advanced search.
2. Enter the surname (and forename if you know it) in the search box.
3. Restrict the search to records held by The National Archives and enter **PROB 11** in the reference field.
4. Add a date range, remembering that the date in the catalogue is the date of probate, not the date of death.

Each catalogue entry gives the testator's name, occupation or status, parish and county, for example: *Will of John Harding, Yeoman of Diss, Norfolk*. Try variant spellings, and search with the place name alone if the surname is common.

## Downloading

Open the catalogue entry and add the digital copy to your basket. Digital downloads from The National Archives are currently free to registered users, with a limit on how many you can download in a given period; check the website for the current terms. The file is a PDF of the page or pages in the court's register book.

## What you are looking at

PROB 11 contains the court's **register copies** — clerks' fair copies of each will made when it was proved — not the original will signed by the testator. Originals survive in other series and can be seen at Kew. The register copy is normally accurate, but copying errors do occur, so if a name or a sum is crucial, consider checking the original.

## Reading the will

Before about 1700, wills are in secretary hand, and until 1733 the probate clause at the end is in Latin. The clause gives the date of probate and the name of the executor. Our [palaeography course](doc:reading-old-handwriting) will help you with the handwriting, and our guide to [probate records](doc:how-to-use-probate-records) explains how the PCC fits with the other church courts.
`),
  ]),

  tip('london-research', 'London research',
    'Where to find records of London ancestors, from parish registers to poor-law and court records.',
    ['2025-06-11', '09:30'], ['2026-08-25', '11:45'], [
    richTextSlice(`
London's population has always been large and mobile, which makes London ancestors both rewarding and difficult to trace. Families moved between parishes every few years, and a single street could cross a parish boundary.

![A map of parishes and roads](county-map.svg)

## Parish registers

The **London Metropolitan Archives** (LMA) holds the Church of England registers for most of the City of London and the old counties of Middlesex and Surrey north of the river — the dioceses of London and Southwark. Many of these can be searched and viewed online through a major commercial website. The registers of the City of Westminster are held by Westminster City Archives.

Before Lord Hardwicke's Marriage Act came into force in 1754, thousands of couples married clandestinely in and around the Fleet Prison. The Fleet registers are at The National Archives (RG 7) and are indexed online.

## Nonconformists and others

London had large communities of Nonconformists, Catholics, Huguenots and Jews. Many Nonconformist registers surrendered in 1840 are at The National Archives in RG 4, and the Huguenot Society has published the registers of the French churches.

## The poor and the workhouse

The records of the London boards of guardians, including workhouse admission and discharge registers and settlement examinations, are at the LMA. Settlement examinations can give a person's whole life story in a paragraph.

## Crime and the courts

The **Proceedings of the Old Bailey**, 1674 to 1913, are searchable free online and record almost two hundred thousand trials, with witnesses as well as defendants.

## Work and trade

The City livery companies' apprenticeship and freedom records can take a family back to the seventeenth century. Trade directories, especially the Post Office London Directory, list businesses year by year. Charles Booth's poverty maps and notebooks of 1886 to 1903 describe London street by street.

## Electoral registers

London electoral registers from 1832 to 1965 are searchable online and can be used, like a census, to trace a family at one address year by year.

Come to our [London research day](doc:researching-london-ancestors-february-2027) to learn more.
`),
  ]),

  tip('surname-searching', 'Surname searching',
    'Origins, variants and distribution: making surnames work for your research.',
    ['2025-07-02', '13:00'], null, [
    richTextSlice(`
## Where surnames come from

Most English surnames became fixed and hereditary between the twelfth and fourteenth centuries. They fall into four broad groups:

- **locative and topographic** names, from a place or a landscape feature — *Hatton*, *Wells*, *Underhill*;
- **occupational** names — *Cooper*, *Archer*, *Thatcher*;
- **relationship** names, from a father's forename — *Richardson*, *Jones*, *Harding*;
- **nicknames** — *Lamb*, *Finch*, *Rose*.

A surname's origin rarely tells you much about your own family: thousands of unrelated men were called Cooper. Its *distribution* is more useful.

## Variants

Spelling was not standardised until the late nineteenth century, and most ancestors could not check what a clerk wrote. Think about how a name sounds in a local accent: a dropped *h* turns Hatton into Atton, and Archer can become Harcher. Search for every plausible variant, use wildcards, and keep a list of the variants you have found.

## Distribution

Mapping where a surname was concentrated, for example in the 1881 census, can suggest where a family originated. Rare surnames are often clustered within a few parishes, which can point you to the right register.

## One-name studies

A one-name study collects every occurrence of a surname, worldwide. The Guild of One-Name Studies keeps a register of studies; if your surname is registered, the researcher may already have much of what you need.

## Dictionaries

The standard references are Reaney and Wilson's *A Dictionary of English Surnames* and the *Oxford Dictionary of Family Names in Britain and Ireland*. Both are in our library.

Members can search our members' interests directory to find others researching the same surname, and the [make connections](doc:make-connections) page has more ideas.
`),
  ]),

  tip('make-connections', 'Make connections',
    'Finding other researchers, distant cousins and local experts who can help you.',
    ['2025-08-06', '10:00'], ['2026-04-21', '15:00'], [
    richTextSlice(`
Family history can feel solitary, but the breakthroughs often come from other people: a distant cousin with the family Bible, a local historian who knows the parish, or a DNA match who has already solved your puzzle.

## Join societies

As well as this Society, consider the family history society for each county where your ancestors lived. Local societies publish indexes, run help desks and know their record offices intimately. Many belong to the Family History Federation. There are also societies for particular groups, such as Catholic, Jewish, Huguenot and Quaker ancestors.

## Publish your interests

Register your surnames and places in members' interests directories, including ours. Someone researching the same family may contact you — and you may find them.

## Forums and groups

Online forums and social media groups devoted to counties, surnames, occupations and record types are full of helpful people. Give plenty of detail when you ask a question: names, dates, places and what you have already searched.

## DNA

A DNA test will give you a list of genetic cousins. When you contact a match, be polite, brief and specific: say how you think you may be related and what you already know. Many people test out of curiosity and reply slowly, if at all. Our [DNA course](doc:dna-for-family-historians) explains how to interpret matches.

## Share carefully

Sharing your tree online attracts contacts, but protect the privacy of living people and share sources as well as conclusions.
`),
  ]),

  tip('writing-genealogical-reports', 'Writing genealogical reports',
    'How to structure a research report, cite sources and present conclusions that others can check.',
    ['2025-09-17', '11:30'], ['2026-06-09', '10:40'], [
    richTextSlice(`
Writing up your research, even for yourself, forces you to check your reasoning. A good report lets another person follow exactly what you did, see what you found, and reach the same conclusion.

## A simple structure

1. **Objective** — the question the research set out to answer.
2. **Summary** — the answer, in a few sentences.
3. **Background** — what was already known at the start, and from which sources.
4. **Research** — each source searched, what it showed, and the searches that found nothing.
5. **Analysis** — how the evidence fits together, including any conflicts and how you resolved them.
6. **Conclusions and recommendations** — what is proved, what is probable, and what to search next.

## Citing sources

Every fact needs a citation that would let a stranger find the same record. A census citation, for example, might read:

\`\`\`
1891 census, England and Wales: Diss, Norfolk, RG 12/1534,
folio 62, page 14, schedule 47, household of Thomas Cooper.
Image viewed online, 12 March 2026.
\`\`\`

Distinguish between **original** records and **derivative** ones (indexes, transcriptions and abstracts), and between information given by someone with first-hand knowledge and information given second-hand.

## Proof

Many genealogists use the Genealogical Proof Standard as a test of a conclusion: a reasonably exhaustive search; complete and accurate citations; careful analysis and correlation of the evidence; resolution of any conflicting evidence; and a soundly reasoned, written conclusion. A conclusion that meets all five is as reliable as genealogy allows.

## Style

Write plainly. Use the past tense for what records show and the present tense for your reasoning. Give dates as 14 March 1881 rather than 14/3/81, which is ambiguous. Put surnames in capitals if you wish, but be consistent.
`),
  ]),

  tip('employing-a-professional-genealogist', 'Employing a professional genealogist',
    'When to hire a professional, how to find one and how to write a brief.',
    ['2025-10-15', '10:00'], null, [
    richTextSlice(`
Sometimes it makes sense to employ a professional: when records are held far away, when they are in Latin or difficult handwriting, or when you have reached a problem that needs specialist knowledge.

## Finding a professional

Look for researchers who belong to a professional body with a code of practice and a complaints procedure, such as the Association of Genealogists and Researchers in Archives (AGRA), the Register of Qualified Genealogists, the Association of Scottish Genealogists and Researchers in Archives, or Accredited Genealogists Ireland. Choose someone who knows the area or the record type you need.

## Writing a brief

A clear brief saves money. Include:

- the specific question you want answered;
- a summary of what you already know, with copies of the key documents;
- what you have already searched, so that it is not searched again;
- your budget, and whether the researcher should stop and report when half of it is spent;
- the form in which you want the results.

## What to expect

Professionals usually charge by the hour plus expenses such as certificates and copying. Agree the terms in writing before work starts. No honest researcher can guarantee a result; what you are paying for is a thorough, well-documented search. You should receive a [report](doc:writing-genealogical-reports) listing everything searched, with copies or transcripts of what was found.
`),
  ]),

  tip('genealogy-as-a-career', 'Genealogy as a career',
    'The kinds of professional genealogical work, the qualifications available and the realities of the business.',
    ['2025-11-05', '10:00'], ['2026-07-14', '09:20'], [
    richTextSlice(`
Many people who enjoy researching their own family wonder whether they could do it for a living. It is possible, and rewarding, but it is a business as well as a passion.

## Kinds of work

- **Client research** — tracing families for private clients, at home or abroad.
- **Probate research** — finding the heirs of people who died without a will, usually for specialist firms.
- **Forensic genealogy** — work for solicitors, courts and government, where evidence must stand up to scrutiny.
- **House and local history** — tracing the history of a building or place.
- **Media research** — finding stories for television, radio and publishers.
- **Teaching and writing** — courses, talks, articles and books.

## Qualifications

There is no legal requirement to hold a qualification, but clients increasingly look for one. Options include the certificate, diploma and licentiateship courses of the Institute of Heraldic and Genealogical Studies, and university postgraduate programmes in genealogical studies, such as those at the University of Strathclyde. Shorter online courses are offered by several providers. Membership of a professional body — such as AGRA or the Register of Qualified Genealogists — shows clients that your work meets a recognised standard.

## The business side

Most professional genealogists are self-employed. You will need to set rates, keep accounts, hold professional indemnity insurance, protect clients' personal data, and write clear contracts and [reports](doc:writing-genealogical-reports). Building a reputation takes time; many genealogists start part-time and specialise in the areas and records they know best.
`),
  ]),
];

export const learnIndexes = [
  page({
    uid: 'learn', title: 'Learn', description: 'Guides, hints and tips for family historians at every level.',
    parent: null, tags: ['learning'], published: ['2025-01-06', '09:00'], updated: ['2026-02-03', '11:00'],
    body: [
      richTextSlice(`
The Society has helped people trace their families for nearly a century. These pages collect our practical advice. If you are new to family history, start with [how to start your family tree](doc:how-to-start-your-family-tree) and our [top 10 tips](doc:top-10-tips-for-starting-your-family-history).
`),
      gridSlice('Where to start', [
        { title: 'Guides', text: 'Step-by-step guides to the major record sources.', image: image('parish-register.svg'), link: docLink('guides') },
        { title: 'Hints and tips', text: 'Short advice on search strategies, websites and research practice.', image: image('handwriting.svg'), link: docLink('hints-tips') },
        { title: 'Courses and talks', text: 'Learn with us in person and online.', image: image('meeting.svg'), link: docLink('education') },
      ]),
    ],
  }),
  page({
    uid: 'guides', title: 'Guides', description: 'Step-by-step guides to the major record sources for family history.',
    parent: 'learn', tags: ['learning'], published: ['2025-01-06', '09:05'], updated: ['2026-03-10', '10:00'],
    body: [
      richTextSlice(`
Our guides explain the major record sources for family history in England and Wales: what survives, where to find it and how to interpret it.

- [How to start your family tree](doc:how-to-start-your-family-tree)
- [How to use census records](doc:how-to-use-census-records)
- [How to use probate records](doc:how-to-use-probate-records)
- [How to search for birth, marriage and death certificates — part 1: the indexes](doc:how-to-search-for-birth-marriage-and-death-certificates-1)
- [How to search for birth, marriage and death certificates — part 2: ordering and reading certificates](doc:how-to-search-for-birth-marriage-and-death-certificates-2)
`),
    ],
  }),
  page({
    uid: 'hints-tips', title: 'Hints and tips', description: 'Short practical advice on search strategies, websites and research practice.',
    parent: 'learn', tags: ['learning'], published: ['2025-01-06', '09:10'], updated: ['2026-08-25', '12:00'],
    body: [
      richTextSlice(`
Practical advice from our librarians, tutors and volunteers.

## Getting started

- [Top 10 tips for starting your family history](doc:top-10-tips-for-starting-your-family-history)
- [Genealogy or family history?](doc:genealogy-or-family-history)
- [Make connections](doc:make-connections)
- [Surname searching](doc:surname-searching)

## Websites and records

- [How to get the best results from FamilySearch](doc:how-to-get-the-best-results-from-familysearch)
- [How to get the best results from the IGI](doc:how-to-get-the-best-results-from-the-igi)
- [Finding and downloading PCC wills from The National Archives](doc:finding-and-downloading-pcc-wills-from-the-national)
- [London research](doc:london-research)

## Research practice and careers

- [Writing genealogical reports](doc:writing-genealogical-reports)
- [Employing a professional genealogist](doc:employing-a-professional-genealogist)
- [Genealogy as a career](doc:genealogy-as-a-career)
`),
    ],
  }),
];
