// The `page` custom type: title, description, parent (content relationship) and body.
import { document, docLink, emptyLink, rt } from './lib.mjs';

export function page({ uid, title, description, parent, tags = [], published, updated, body }) {
  return document({
    type: 'page',
    uid,
    tags,
    published,
    updated,
    data: { title: rt(`# ${title}`), description, parent: parent ? docLink(parent) : emptyLink(), body },
  });
}
