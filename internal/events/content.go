package events

import (
	"context"
	"regexp"
	"strings"
	"time"

	"lineage/internal/content"
)

var eventUIDRe = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,199}$`)

// FromContent is Options.Event on the content service: it reads an event document's title, start, end and location from the
// published content (the master ref).
func FromContent(ct *content.Service) func(ctx context.Context, uid string) (Event, error) {
	return func(ctx context.Context, uid string) (Event, error) {
		if !eventUIDRe.MatchString(uid) {
			return Event{}, ErrNoEvent
		}
		repo, err := ct.Repository(ctx)
		if err != nil {
			return Event{}, err
		}
		res, err := ct.Search(ctx, content.SearchParams{
			Ref:      repo.MasterRef,
			Q:        []string{`[[at(document.type, "event")]]`, `[[at(my.event.uid, "` + uid + `")]]`},
			PageSize: 1, Lang: "*",
		})
		if err != nil {
			return Event{}, err
		}
		if len(res.Results) == 0 {
			return Event{}, ErrNoEvent
		}
		return eventFromData(uid, res.Results[0].Data), nil
	}
}

// eventFromData reads the fields of an event document's data.
func eventFromData(uid string, data map[string]any) Event {
	ev := Event{UID: uid}
	if parts, ok := data["title"].([]any); ok {
		var b strings.Builder
		for _, p := range parts {
			if m, ok := p.(map[string]any); ok {
				if t, ok := m["text"].(string); ok {
					if b.Len() > 0 {
						b.WriteString(" ")
					}
					b.WriteString(t)
				}
			}
		}
		ev.Title = b.String()
	}
	ev.Start = prismicTime(data["start"])
	ev.End = prismicTime(data["end"])
	ev.Location, _ = data["location"].(string)
	return ev
}

// prismicTime reads a Timestamp field ("2026-12-02T19:00:00+0000"); zero when absent.
func prismicTime(v any) time.Time {
	s, _ := v.(string)
	for _, layout := range []string{"2006-01-02T15:04:05-0700", time.RFC3339} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}
