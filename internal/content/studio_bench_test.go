package content

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"lineage/internal/store/storetest"
)

// BenchmarkStudioSave is one autosave through the studio (model validation, the
// revision claim, the folded history row) on SQLite; BenchmarkSaveDraftReference is the
// plain draft write underneath it, the reference to compare it with.
func BenchmarkStudioSave(b *testing.B) {
	ctx := context.Background()
	svc := New(storetest.SQLite(b), Options{})
	ed := Editor{ID: 1, Name: "Pat", Staff: true}
	d, err := svc.CreateDocument(ctx, ed, DocumentInput{Type: "news_item", UID: "bench", Data: json.RawMessage(newsData)})
	if err != nil {
		b.Fatal(err)
	}
	rev := d.Revision
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := svc.SaveDocument(ctx, ed, d.ID, DocumentInput{Revision: &rev, UID: "bench", Data: json.RawMessage(newsData)})
		if err != nil {
			b.Fatal(err)
		}
		rev = out.Revision
	}
}

func BenchmarkSaveDraftReference(b *testing.B) {
	ctx := context.Background()
	svc := New(storetest.SQLite(b), Options{})
	for i := 0; i < b.N; i++ {
		if _, err := svc.SaveDraft(ctx, Document{ID: "bench", UID: "bench", Type: "news_item", Lang: "en-gb", Data: json.RawMessage(newsData)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStudioList1k lists one page of 1 000 documents with a word search (every
// document is read and filtered in memory).
func BenchmarkStudioList1k(b *testing.B) {
	ctx := context.Background()
	svc := New(storetest.SQLite(b), Options{})
	if _, err := svc.Import(ctx, benchDocs(1000)); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l, err := svc.ListDocuments(ctx, ListParams{Q: "parish register", Type: "news_item", Page: 1, PageSize: 20})
		if err != nil || l.Total == 0 {
			b.Fatal(err, fmt.Sprint(l))
		}
	}
}
