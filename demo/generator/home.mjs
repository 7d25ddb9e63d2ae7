// The `home` singleton.
import { document, docLink, image, rt, richTextSlice, heroSlice, gridSlice, gallerySlice, videoSlice } from './lib.mjs';

export const home = document({
  type: 'home',
  uid: 'home',
  published: ['2025-01-06', '08:30'],
  updated: ['2026-11-17', '09:40'],
  data: {
    title: rt('# Discover your family’s story'),
    intro: rt(`
The Society helps people of every background trace, record and share their family history, with a specialist library, searchable indexes, expert guidance and a friendly community of researchers.
`),
    body: [
      heroSlice({
        title: 'Discover your family’s story',
        text: 'Search our collections, learn from experts and connect with thousands of fellow researchers. **New to family history?** Start here.',
        image: image('church.svg'),
        link: docLink('how-to-start-your-family-tree'),
        linkLabel: 'Start your family tree',
      }),
      richTextSlice(`
## Welcome to Lineage

Our research hub brings together family trees, memorial cards, record sets and indexes compiled by our members over nearly a century. This year we released the [Surrey baptism index](doc:surrey-baptism-index-released), and our volunteers have just passed [250,000 entries](doc:transcription-milestone-250000) in its second part.
`),
      gridSlice('Explore the Society', [
        { title: 'Learn', text: 'Guides, hints and tips for every stage of your research.', image: image('parish-register.svg'), link: docLink('learn') },
        { title: 'Courses and talks', text: 'Beginners’ courses, palaeography and DNA, in person and online.', image: image('meeting.svg'), link: docLink('education') },
        { title: 'Volunteer', text: 'Help us transcribe records for everyone to search.', image: image('family-group.svg'), link: docLink('transcription-volunteers') },
        { title: 'About us', text: 'Our history, our organisation and how we are governed.', image: image('library.svg'), link: docLink('about') },
      ]),
      videoSlice('From our lecture programme'),
      gallerySlice('From the collections', [
        ['parish-register.svg', 'Baptisms, 1783 to 1784'],
        ['census-form.svg', 'A household in the 1891 census'],
        ['certificate.svg', 'A birth certificate of 1881'],
        ['churchyard.svg', 'Monumental inscriptions recorded by volunteers'],
        ['county-map.svg', 'Parish boundaries of the hundred'],
      ]),
    ],
  },
});
