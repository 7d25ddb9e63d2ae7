package content

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

func TestRefs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := newFixtureService(t, db, Options{})
		first := masterRef(t, svc)

		t.Run("PublishMovesMaster", func(t *testing.T) {
			doc := Document{ID: "n5", UID: "fresh", Type: "news_item", Lang: "en-gb", Data: json.RawMessage(`{"title":[{"type":"heading1","text":"Fresh","spans":[]}]}`)}
			ref, err := svc.Publish(ctx, doc)
			if err != nil {
				t.Fatal(err)
			}
			if ref == first || masterRef(t, svc) != ref || len(ref) != 16 {
				t.Fatalf("master %q after publish, was %q, publish said %q", masterRef(t, svc), first, ref)
			}
			if ids := idsOf(search(t, svc, SearchParams{Ref: ref, Q: []string{`[[at(my.news_item.uid, "fresh")]]`}})); ids != "n5" {
				t.Errorf("published document not found: %q", ids)
			}
			// Publication dates: first kept on republish, last moves.
			d1 := search(t, svc, SearchParams{Ref: ref, Q: []string{`[[at(document.id, "n5")]]`}}).Results[0]
			time.Sleep(5 * time.Millisecond)
			ref2, err := svc.Publish(ctx, doc)
			if err != nil {
				t.Fatal(err)
			}
			d2 := search(t, svc, SearchParams{Ref: ref2, Q: []string{`[[at(document.id, "n5")]]`}}).Results[0]
			if *d1.FirstPublicationDate != *d2.FirstPublicationDate {
				t.Errorf("first_publication_date moved: %s → %s", *d1.FirstPublicationDate, *d2.FirstPublicationDate)
			}
		})

		t.Run("OldRefIs410", func(t *testing.T) {
			_, err := svc.Search(ctx, SearchParams{Ref: first})
			e, ok := AsError(err)
			if !ok || e.Kind != KindRefExpired || e.status() != 410 || !strings.HasSuffix(e.Message, "Master ref is: "+masterRef(t, svc)) {
				t.Fatalf("old ref: %v", err)
			}
		})

		t.Run("UnknownRefIs404", func(t *testing.T) {
			_, err := svc.Search(ctx, SearchParams{Ref: "not-a-ref"})
			e, ok := AsError(err)
			if !ok || e.Kind != KindRefNotFound || e.errType() != "api_notfound_error" || !strings.HasSuffix(e.Message, "Master ref is: "+masterRef(t, svc)) {
				t.Fatalf("unknown ref: %v", err)
			}
		})

		t.Run("BatchMovesMasterOnce", func(t *testing.T) {
			var before int
			db.QueryRow("SELECT count(*) FROM content_refs WHERE kind = 'master'").Scan(&before)
			docs := []Document{
				{ID: "b1", UID: "b1", Type: "page", Lang: "en-gb", Data: json.RawMessage(`{}`)},
				{ID: "b2", UID: "b2", Type: "page", Lang: "en-gb", Data: json.RawMessage(`{}`)},
			}
			if _, err := svc.Import(ctx, docs); err != nil {
				t.Fatal(err)
			}
			var after int
			db.QueryRow("SELECT count(*) FROM content_refs WHERE kind = 'master'").Scan(&after)
			if after != before+1 {
				t.Errorf("import of 2 documents added %d master refs", after-before)
			}
		})

		t.Run("UIDClash", func(t *testing.T) {
			_, err := svc.Publish(ctx, Document{ID: "other", UID: "about", Type: "page", Lang: "en-gb"})
			if err == nil || !strings.Contains(err.Error(), `uid "about" is already used`) {
				t.Fatalf("uid clash: %v", err)
			}
			// The same uid in another language is fine.
			if _, err := svc.Publish(ctx, Document{ID: "about-fr", UID: "about", Type: "page", Lang: "fr-fr"}); err != nil {
				t.Fatal(err)
			}
		})

		t.Run("Unpublish", func(t *testing.T) {
			ref, err := svc.Unpublish(ctx, "jane")
			if err != nil {
				t.Fatal(err)
			}
			d := search(t, svc, SearchParams{Ref: ref, Q: []string{`[[at(document.id, "n1")]]`}}).Results[0]
			if a := d.Data["author"].(map[string]any); a["isBroken"] != true {
				t.Errorf("link to an unpublished document: %v", a)
			}
		})

		t.Run("PreviewSeesDrafts", func(t *testing.T) {
			master := masterRef(t, svc)
			if _, err := svc.SaveDraft(ctx, Document{ID: "about", UID: "about", Type: "page", Lang: "en-gb", Tags: []string{"draft"},
				Data: json.RawMessage(`{"title":[{"type":"heading1","text":"About us (draft)","spans":[]}]}`)}); err != nil {
				t.Fatal(err)
			}
			if _, err := svc.SaveDraft(ctx, Document{ID: "brand-new", UID: "brand-new", Type: "page", Lang: "en-gb",
				Data: json.RawMessage(`{"title":[{"type":"heading1","text":"Never published","spans":[]}]}`)}); err != nil {
				t.Fatal(err)
			}
			if masterRef(t, svc) != master {
				t.Fatal("saving a draft moved the master ref")
			}
			token, err := svc.CreatePreview(ctx, time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			q := []string{`[[in(document.id, ["about", "brand-new"])]]`}
			pub := search(t, svc, SearchParams{Ref: master, Q: q})
			if idsOf(pub) != "about" || asText(pub.Results[0].Data["title"]) != "About the Society" {
				t.Errorf("master sees drafts: %s %v", idsOf(pub), pub.Results[0].Data["title"])
			}
			prev := search(t, svc, SearchParams{Ref: token, Q: q})
			if idsOf(prev) != "about,brand-new" || asText(prev.Results[0].Data["title"]) != "About us (draft)" || !prev.Preview {
				t.Errorf("preview = %s %v", idsOf(prev), prev.Results[0].Data["title"])
			}
			if prev.Results[0].Tags[0] != "draft" || !strings.Contains(prev.Results[0].Href, url.QueryEscape(token)) {
				t.Errorf("preview document %+v", prev.Results[0])
			}
			// resolvePreviewURL: getByID on the token with lang *.
			if ids := idsOf(search(t, svc, SearchParams{Ref: token, Q: []string{`[[at(document.id, "brand-new")]]`}, Lang: "*", PageSize: 1})); ids != "brand-new" {
				t.Errorf("getByID with the preview token = %q", ids)
			}
			// A later draft is seen by the same token (previews are live).
			svc.SaveDraft(ctx, Document{ID: "brand-new", UID: "brand-new", Type: "page", Lang: "en-gb",
				Data: json.RawMessage(`{"title":[{"type":"heading1","text":"Edited again","spans":[]}]}`)})
			again := search(t, svc, SearchParams{Ref: token, Q: []string{`[[at(document.id, "brand-new")]]`}})
			if asText(again.Results[0].Data["title"]) != "Edited again" {
				t.Errorf("preview after a second draft: %v", again.Results[0].Data["title"])
			}
			// The token arrives percent-encoded or as the toolbar's JSON cookie too.
			cookie := url.QueryEscape(`{"lineage.prismic.io":{"preview":"` + token + `"}}`)
			if ids := idsOf(search(t, svc, SearchParams{Ref: cookie, Q: q})); ids != "about,brand-new" {
				t.Errorf("JSON cookie ref = %q", ids)
			}
			// Publishing consumes the draft.
			if _, err := svc.Publish(ctx, Document{ID: "brand-new", UID: "brand-new", Type: "page", Lang: "en-gb", Data: json.RawMessage(`{}`)}); err != nil {
				t.Fatal(err)
			}
			var n int
			db.QueryRow(db.Rebind("SELECT count(*) FROM content_documents WHERE id = ? AND draft_data IS NULL"), "brand-new").Scan(&n)
			if n != 1 {
				t.Error("publish left the draft behind")
			}
		})

		t.Run("DraftCannotChangeType", func(t *testing.T) {
			_, err := svc.SaveDraft(ctx, Document{ID: "about", UID: "about", Type: "news_item", Lang: "en-gb"})
			if err == nil || !strings.Contains(err.Error(), "cannot change its type") {
				t.Errorf("err = %v", err)
			}
		})

		t.Run("PreviewExpires", func(t *testing.T) {
			now := time.Now()
			clock := &fakeClock{t: now}
			svc2 := New(db, Options{Now: clock.Now})
			token, err := svc2.CreatePreview(ctx, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := svc2.Search(ctx, SearchParams{Ref: token}); err != nil {
				t.Fatalf("fresh preview: %v", err)
			}
			clock.Set(now.Add(2 * time.Minute))
			_, err = svc2.Search(ctx, SearchParams{Ref: token})
			e, ok := AsError(err)
			if !ok || e.status() != 404 || e.errType() != "api_security_error" || e.Message != "This preview token has expired" {
				t.Fatalf("expired preview: %v", err)
			}
		})

		t.Run("TwoInstances", func(t *testing.T) {
			// Instances sharing the database: B learns of A's publish without being told.
			a := New(db, Options{RefCheckInterval: -1})
			b := New(db, Options{RefCheckInterval: time.Hour})
			old := masterRef(t, b)
			search(t, b, SearchParams{Ref: old}) // B caches the old master and its snapshot
			ref, err := a.Publish(ctx, Document{ID: "from-a", UID: "from-a", Type: "page", Lang: "en-gb", Data: json.RawMessage(`{}`)})
			if err != nil {
				t.Fatal(err)
			}
			// A client that got the new ref from A's /api/v2 asks B: B must answer, not 404.
			if ids := idsOf(search(t, b, SearchParams{Ref: ref, Q: []string{`[[at(document.id, "from-a")]]`}})); ids != "from-a" {
				t.Fatalf("B with A's new ref = %q", ids)
			}
			if _, err := b.Search(ctx, SearchParams{Ref: old}); err == nil {
				t.Error("B still serves the old master after seeing the new one")
			}
			// Told of a publish elsewhere, B reads the master ref again at once rather
			// than trust the one it read within its hour.
			trusted := masterRef(t, b)
			ref2, err := a.Publish(ctx, Document{ID: "from-a-2", UID: "from-a-2", Type: "page", Lang: "en-gb", Data: json.RawMessage(`{}`)})
			if err != nil {
				t.Fatal(err)
			}
			if got := masterRef(t, b); got != trusted {
				t.Fatalf("B untold read the master %q, want the one it trusts %q", got, trusted)
			}
			b.Changed()
			if got := masterRef(t, b); got != ref2 {
				t.Errorf("B told of the change: master %q, want %q", got, ref2)
			}
			// A preview made on A works on B.
			token, _ := a.CreatePreview(ctx, time.Hour)
			if _, err := b.Search(ctx, SearchParams{Ref: token}); err != nil {
				t.Errorf("A's preview on B: %v", err)
			}
		})

		t.Run("ConcurrentSearchAndPublish", func(t *testing.T) {
			s := New(db, Options{RefCheckInterval: -1})
			var wg sync.WaitGroup
			stop := make(chan struct{})
			errs := make(chan error, 100)
			for i := 0; i < 4; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						select {
						case <-stop:
							return
						default:
						}
						info, err := s.Repository(ctx)
						if err != nil {
							errs <- err
							return
						}
						_, err = s.Search(ctx, SearchParams{Ref: info.MasterRef, Q: []string{`[[at(document.type, "page")]]`}})
						if e, ok := AsError(err); err != nil && !(ok && e.Kind == KindRefExpired) {
							errs <- err
							return
						}
					}
				}()
			}
			for i := 0; i < 5; i++ {
				if _, err := s.Publish(ctx, Document{ID: "c", UID: "c", Type: "page", Lang: "en-gb", Data: json.RawMessage(`{}`)}); err != nil {
					t.Fatal(err)
				}
			}
			close(stop)
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	})
}

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}
