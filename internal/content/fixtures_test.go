package content

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"time"

	"lineage/internal/store"
)

// fixtureDocs is a small repository covering every field shape the searches touch.
func fixtureDocs() []Document {
	d := func(id, uid, typ, lang string, tags []string, first string, data string, alts ...string) Document {
		t, _ := time.Parse(time.RFC3339, first)
		doc := Document{ID: id, UID: uid, Type: typ, Lang: lang, Tags: tags, FirstPublicationDate: t, LastPublicationDate: t.Add(time.Hour), Data: json.RawMessage(data)}
		for _, a := range alts {
			doc.AlternateLanguages = append(doc.AlternateLanguages, AlternateLanguage{ID: a})
		}
		return doc
	}
	return []Document{
		d("home", "home", "page", "en-gb", nil, "2024-01-01T09:00:00Z", `{
			"title":[{"type":"heading1","text":"Welcome to Lineage","spans":[]}],
			"parent":{"link_type":"Any"},
			"body":[
				{"slice_type":"hero","slice_label":null,"id":"hero$1","variation":"default","version":"v1",
				 "primary":{"title":[{"type":"heading1","text":"Find your ancestors","spans":[]}],
				            "image":{"id":"i1","url":"/media/church.svg","alt":"A church","copyright":null,"dimensions":{"width":800,"height":600},"edit":{"x":0,"y":0,"zoom":1,"background":"transparent"}},
				            "link":{"link_type":"Document","id":"about"}},
				 "items":[]},
				{"slice_type":"rich_text","slice_label":null,"id":"rich_text$2","variation":"default","version":"v1",
				 "primary":{"content":[{"type":"paragraph","text":"Read about us.","spans":[{"start":0,"end":4,"type":"hyperlink","data":{"link_type":"Document","id":"about"}}]}]},
				 "items":[]}
			]}`, "home-fr"),
		d("home-fr", "home", "page", "fr-fr", nil, "2024-01-02T09:00:00Z", `{"title":[{"type":"heading1","text":"Bienvenue","spans":[]}],"parent":{"link_type":"Any"},"body":[]}`, "home"),
		d("about", "about", "page", "en-gb", []string{"governance"}, "2024-01-03T09:00:00Z", `{
			"title":[{"type":"heading1","text":"About the Society","spans":[]}],
			"description":"Who we are",
			"parent":{"link_type":"Document","id":"home"},
			"body":[]}`),
		d("history", "history", "page", "en-gb", []string{"governance"}, "2024-01-04T09:00:00Z", `{
			"title":[{"type":"heading1","text":"Our History","spans":[]}],
			"parent":{"link_type":"Document","id":"about","type":"page","uid":"about"},
			"body":[]}`),
		d("jane", "jane-doe", "author", "en-gb", nil, "2024-01-05T09:00:00Z", `{"name":"Jane Doe","bio":[{"type":"paragraph","text":"Archivist.","spans":[]}],"photo":{"url":"/media/jane.png","dimensions":{"width":10,"height":10}}}`),
		d("n1", "census-1851", "news_item", "en-gb", []string{"news"}, "2024-02-10T09:00:00Z", `{
			"title":[{"type":"heading1","text":"The 1851 census is online","spans":[]}],
			"summary":[{"type":"paragraph","text":"Parish registers and census returns for Dublin.","spans":[]}],
			"date":"2024-02-10","priority":3,"featured":true,
			"image":{"url":"/media/census.png","alt":null,"dimensions":{"width":1,"height":1}},
			"author":{"link_type":"Document","id":"jane"},
			"related":{"link_type":"Document","id":"GONE","type":"page","uid":"gone"},
			"group":[{"name":"alpha"},{"name":"beta"}]}`),
		d("n2", "open-day", "news_item", "en-gb", []string{"news", "events"}, "2024-03-15T09:00:00Z", `{
			"title":[{"type":"heading1","text":"Open day at the library","spans":[]}],
			"summary":[{"type":"paragraph","text":"Séamus will show the memorial cards.","spans":[]}],
			"date":"2024-03-15","priority":1,"featured":false,
			"image":{},
			"author":{"link_type":"Document","id":"jane"},
			"group":[]}`),
		d("n3", "new-indexes", "news_item", "en-gb", []string{"news"}, "2024-04-20T09:00:00Z", `{
			"title":[{"type":"heading1","text":"New indexes of parish registers","spans":[]}],
			"summary":[],
			"date":"2024-04-20","priority":5,
			"author":{"link_type":"Any"}}`),
		d("n4", "no-date", "news_item", "en-gb", []string{"news"}, "2024-05-01T09:00:00Z", `{
			"title":[{"type":"heading1","text":"Undated note","spans":[]}],
			"priority":2}`),
		d("e1", "agm", "event", "en-gb", []string{"events"}, "2024-01-10T09:00:00Z", `{
			"title":[{"type":"heading1","text":"AGM","spans":[]}],
			"start":"2024-06-16T13:30:00+0000",
			"where":{"latitude":53.3498,"longitude":-6.2603}}`),
		d("e2", "dna-day", "event", "en-gb", []string{"events"}, "2024-01-11T09:00:00Z", `{
			"title":[{"type":"heading1","text":"DNA day","spans":[]}],
			"start":"2024-12-03T09:00:00+0000",
			"where":{"latitude":51.5074,"longitude":-0.1278}}`),
	}
}

// newFixtureService imports the fixtures into db.
func newFixtureService(t testing.TB, db *store.DB, opts Options) *Service {
	t.Helper()
	svc := New(db, opts)
	if _, err := svc.Import(context.Background(), fixtureDocs()); err != nil {
		t.Fatalf("import fixtures: %v", err)
	}
	return svc
}

func masterRef(t testing.TB, svc *Service) string {
	t.Helper()
	info, err := svc.Repository(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return info.MasterRef
}

// searchIDs runs a search on the master ref and returns the result IDs in order.
func searchIDs(t *testing.T, svc *Service, p SearchParams) []string {
	t.Helper()
	res := search(t, svc, p)
	ids := make([]string, 0, len(res.Results))
	for _, d := range res.Results {
		ids = append(ids, d.ID)
	}
	return ids
}

func search(t *testing.T, svc *Service, p SearchParams) *SearchResult {
	t.Helper()
	if p.Ref == "" {
		p.Ref = masterRef(t, svc)
	}
	res, err := svc.Search(context.Background(), p)
	if err != nil {
		t.Fatalf("search %+v: %v", p, err)
	}
	return res
}

func sortedIDs(ids []string) string {
	c := append([]string(nil), ids...)
	sort.Strings(c)
	return strings.Join(c, ",")
}

// jsonOf re-encodes v for comparisons that should not depend on Go types.
func jsonOf(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
