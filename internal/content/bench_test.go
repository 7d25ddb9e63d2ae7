package content

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"lineage/internal/store/storetest"
)

// benchDocs makes n documents of three types with rich text of about 120 words each.
func benchDocs(n int) []Document {
	rng := rand.New(rand.NewPCG(1, 2))
	vocab := make([]string, 3000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%dx%c", i, 'a'+rune(i%26))
	}
	vocab[7], vocab[8] = "parish", "register"
	sentence := func(words int) string {
		parts := make([]string, words)
		for i := range parts {
			// Zipf-ish: low indexes are common, so "parish register" matches a few percent.
			parts[i] = vocab[int(float64(len(vocab))*rng.Float64()*rng.Float64()*rng.Float64())]
		}
		return strings.Join(parts, " ")
	}
	types := []string{"news_item", "news_item", "page", "event"}
	base := time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC)
	docs := make([]Document, n)
	for i := range docs {
		typ := types[i%len(types)]
		date := base.Add(time.Duration(rng.IntN(10*365)) * 24 * time.Hour)
		data := map[string]any{
			"title":    []any{map[string]any{"type": "heading1", "text": sentence(6), "spans": []any{}}},
			"summary":  []any{map[string]any{"type": "paragraph", "text": sentence(20), "spans": []any{}}},
			"date":     date.Format("2006-01-02"),
			"priority": rng.IntN(10),
			"image":    map[string]any{"url": "/media/church.svg", "alt": nil, "dimensions": map[string]any{"width": 800, "height": 600}},
			"author":   map[string]any{"link_type": "Document", "id": fmt.Sprintf("d%05d", rng.IntN(n))},
			"body": []any{map[string]any{
				"slice_type": "rich_text", "slice_label": nil, "id": fmt.Sprintf("rich_text$%d", i), "variation": "default", "version": "v1",
				"primary": map[string]any{"content": []any{
					map[string]any{"type": "paragraph", "text": sentence(50), "spans": []any{}},
					map[string]any{"type": "paragraph", "text": sentence(50), "spans": []any{}},
				}},
				"items": []any{},
			}},
		}
		b, _ := json.Marshal(data)
		docs[i] = Document{
			ID: fmt.Sprintf("d%05d", i), UID: fmt.Sprintf("doc-%05d", i), Type: typ, Lang: "en-gb",
			Tags: []string{[]string{"news", "events", "governance"}[i%3]}, FirstPublicationDate: date, LastPublicationDate: date,
			Data: b,
		}
	}
	return docs
}

// BenchmarkSearch10k measures searches over 10 000 documents on a loaded snapshot
// (SQLite; the snapshot is in memory, so the database only answers the master-ref
// check, at most once a second by default).
func BenchmarkSearch10k(b *testing.B) {
	ctx := context.Background()
	svc := New(storetest.SQLite(b), Options{PublicURL: "http://localhost:8080"})
	if _, err := svc.Import(ctx, benchDocs(10000)); err != nil {
		b.Fatal(err)
	}
	ref := masterRef(b, svc)
	typical := SearchParams{Ref: ref, Q: []string{`[[at(document.type, "news_item")]]`}, Orderings: "[my.news_item.date desc]", PageSize: 20, Page: 3}
	fulltext := SearchParams{Ref: ref, Q: []string{`[[fulltext(document, "parish register")]]`}, PageSize: 20}
	// Cached: the same query again, as when many visitors load one page or a client
	// pages through a list (the snapshot memoises ordered matches). Uncached: every
	// iteration is a new query (a not(document.id, …) that matches nothing is added),
	// which is the cost of the first request for a query on a snapshot.
	run := func(b *testing.B, p SearchParams, uncached bool) {
		if _, err := svc.Search(ctx, p); err != nil { // warm: snapshot, words, sorted lists
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		i := 0
		for b.Loop() {
			q := p
			if uncached {
				i++
				q.Q = append(append([]string(nil), p.Q...), fmt.Sprintf(`[[not(document.id, "x%d")]]`, i))
			}
			res, err := svc.Search(ctx, q)
			if err != nil || len(res.Results) == 0 {
				b.Fatalf("%v %d", err, len(res.Results))
			}
		}
	}
	dateRange := SearchParams{Ref: ref, Q: []string{`[[at(document.type, "news_item")][at(document.tags, "news")][date.after(my.news_item.date, "2020-01-01")]]`},
		Orderings: "[my.news_item.date desc]", PageSize: 20}
	byUID := SearchParams{Ref: ref, Q: []string{`[[at(document.type, "page")]]`, `[[at(my.page.uid, "doc-00002")]]`}, Lang: "*", PageSize: 1}
	for _, c := range []struct {
		name string
		p    SearchParams
	}{{"TypeOrderPage", typical}, {"Fulltext", fulltext}, {"TypeTagDateRange", dateRange}, {"ByUID", byUID}} {
		b.Run(c.name+"/cached", func(b *testing.B) { run(b, c.p, false) })
		b.Run(c.name+"/uncached", func(b *testing.B) { run(b, c.p, true) })
	}
	// Through the handler, JSON included: cached is a repeat request (documents come
	// from the render cache), uncached a new query each time.
	for _, uncached := range []bool{false, true} {
		name := map[bool]string{false: "HTTPTypeOrderPage/cached", true: "HTTPTypeOrderPage/uncached"}[uncached]
		b.Run(name, func(b *testing.B) {
			h := handler(svc)
			q := url.Values{"ref": {ref}, "q": {typical.Q[0]}, "orderings": {typical.Orderings}, "pageSize": {"20"}, "page": {"3"},
				"fetchLinks": {"news_item.title"}, "routes": {`[{"type":"news_item","path":"/news/:uid"}]`}}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if uncached {
					i++
					// A new query and new routes: nothing memoised applies, every document
					// on the page is rendered again.
					q["q"] = []string{typical.Q[0], fmt.Sprintf(`[[not(document.id, "x%d")]]`, i)}
					q.Set("routes", fmt.Sprintf(`[{"type":"news_item","path":"/news%d/:uid"}]`, i))
				}
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest("GET", APIPath+"/documents/search?"+q.Encode(), nil))
				if rec.Code != 200 {
					b.Fatal(rec.Code, rec.Body.String())
				}
			}
		})
	}
}

// BenchmarkSnapshotLoad10k measures the cost paid once per publish: reading 10 000
// documents and indexing them.
func BenchmarkSnapshotLoad10k(b *testing.B) {
	ctx := context.Background()
	db := storetest.SQLite(b)
	svc := New(db, Options{})
	if _, err := svc.Import(ctx, benchDocs(10000)); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, _, err := svc.load(ctx, false); err != nil {
			b.Fatal(err)
		}
	}
}
