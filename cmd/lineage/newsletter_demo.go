package main

import (
	"context"
	"fmt"
	"log/slog"

	"lineage/internal/content"
)

// demoNewsletterUID is the --demo newsletter document editors compose an edition from.
const demoNewsletterUID = "demo-newsletter"

// demoNewsletterData is its content: a title, a summary and a rich-text slice with a
// link and an image (site paths, made absolute in mail).
const demoNewsletterData = `{
 "title": [{"type": "heading1", "text": "Society news: winter", "spans": []}],
 "summary": [{"type": "paragraph", "text": "New indexes, the spring programme and a research tip from the library.", "spans": []}],
 "body": [{
  "slice_type": "rich_text", "slice_label": null, "id": "rich_text$demo-newsletter-1", "variation": "default", "version": "initial",
  "primary": {"content": [
   {"type": "heading2", "text": "From the chair", "spans": []},
   {"type": "paragraph", "text": "Thank you to the volunteers who transcribed a quarter of a million entries this year. Read the details on our news page.", "spans": [{"start": 106, "end": 119, "type": "hyperlink", "data": {"link_type": "Web", "url": "/news"}}]},
   {"type": "heading2", "text": "Research tip", "spans": []},
   {"type": "paragraph", "text": "Search for a surname with variants on: Smyth, Smythe and Smith are often the same family in the registers.", "spans": [{"start": 0, "end": 38, "type": "strong"}]},
   {"type": "list-item", "text": "Try the phonetic search for unusual names.", "spans": []},
   {"type": "list-item", "text": "Save a search and turn on an alert to hear of new records.", "spans": []}
  ]}
 }]
}`

// loadDemoNewsletter publishes the demo newsletter document when the store has no
// document of type newsletter (serve --demo).
func loadDemoNewsletter(ctx context.Context, ct *content.Service, docs newsletterContent) error {
	have, err := docs.NewsletterDocuments(ctx)
	if err != nil || len(have) > 0 {
		return err
	}
	if _, err := ct.Publish(ctx, content.Document{UID: demoNewsletterUID, Type: "newsletter", Lang: "en-gb", Data: []byte(demoNewsletterData)}); err != nil {
		return fmt.Errorf("demo newsletter document: %w", err)
	}
	slog.Info("demo newsletter document loaded", "uid", demoNewsletterUID)
	return nil
}
