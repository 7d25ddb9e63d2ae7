// `block-showcase`: one page that uses every slice type and every rich-text block
// and span type, for visual checks and renderer tests.
import { page } from './pages.mjs';
import { docLink, image, webLink, richTextSlice, heroSlice, gridSlice, gallerySlice, videoSlice } from './lib.mjs';

export const showcase = page({
  uid: 'block-showcase',
  title: 'Block showcase',
  description: 'Every slice, block and span type the site renders, on one page.',
  parent: null,
  tags: ['showcase'],
  published: ['2025-01-06', '12:00'],
  updated: ['2026-11-20', '16:00'],
  body: [
    heroSlice({
      title: 'Hero slice',
      text: 'A hero with a title, *rich* **text**, an image and a link to a [guide](doc:how-to-use-census-records).',
      image: image('church.svg'),
      link: docLink('how-to-start-your-family-tree'),
      linkLabel: 'Document link',
    }),
    richTextSlice(`
# Heading 1

## Heading 2

### Heading 3

#### Heading 4

##### Heading 5

###### Heading 6

A paragraph with **strong text**, *emphasised text*, a [web link](https://www.nationalarchives.gov.uk/), a [web link that opens in a new tab](blank:https://www.freebmd.org.uk/), a [document link](doc:how-to-use-probate-records), a [media link to a PDF](media:annual-report-2025.pdf), a [media link to an image](media:county-map.svg) and a {{label:highlight|label span called highlight}}.

Overlapping spans: **bold, then *bold and italic** then italic only*; a [link with **bold inside**](doc:london-research); and {{label:sidenote|a label that *crosses}} into emphasis*.

Text outside the Basic Multilingual Plane counts as two UTF-16 code units: the family tree 🌳 sits before **this bold span**, and Zoë Ångström’s name 𝔊 precedes a [document link](doc:surname-searching).

\`\`\`
0 @I1@ INDI
1 NAME Thomas /Cooper/
1 BIRT
2 DATE ABT 1849
2 PLAC Diss, Norfolk, England
\`\`\`

- A list item
- A list item with **strong** and *em*
- A list item with a [link](doc:guides)

1. An ordered list item
2. A second ordered item with a [media link](media:parish-register.svg)
3. A third ordered item

![A parish register linked to a guide](parish-register.svg | doc:how-to-use-census-records)

![A county map linked to a web page](county-map.svg | https://www.visionofbritain.org.uk/)

@embed

A closing paragraph after the embed.
`),
    gallerySlice('Gallery slice', [
      ['family-group.svg', 'A Victorian family portrait'],
      ['churchyard.svg', 'Headstones in a country churchyard'],
      ['certificate.svg', 'A birth certificate'],
      ['dna.svg', 'DNA and the family tree'],
    ]),
    videoSlice('Video slice'),
    gridSlice('Grid slice', [
      { title: 'With a document link', text: 'Grid text with **strong** and a [web link](https://www.familysearch.org/).', image: image('library.svg'), link: docLink('education') },
      { title: 'With a web link', text: 'Links to an outside website.', image: image('county-map.svg'), link: webLink('https://www.nationalarchives.gov.uk/', '_blank') },
      { title: 'Without an image or link', text: 'Grid items may leave the image and link empty.' },
    ]),
  ],
});
