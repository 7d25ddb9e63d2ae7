package content

import (
	"context"
	"strings"
	"testing"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

func TestSearch(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		svc := newFixtureService(t, db, Options{PublicURL: "https://lineage.example"})
		t.Run("Predicates", func(t *testing.T) { testPredicates(t, svc) })
		t.Run("Orderings", func(t *testing.T) { testOrderings(t, svc) })
		t.Run("Paging", func(t *testing.T) { testPaging(t, svc) })
		t.Run("Lang", func(t *testing.T) { testLang(t, svc) })
		t.Run("Document", func(t *testing.T) { testDocumentShape(t, svc) })
		t.Run("Links", func(t *testing.T) { testLinks(t, svc) })
		t.Run("FetchLinks", func(t *testing.T) { testFetchLinks(t, svc) })
		t.Run("Fetch", func(t *testing.T) { testFetch(t, svc) })
		t.Run("GraphQuery", func(t *testing.T) { testGraphQuery(t, svc) })
		t.Run("Routes", func(t *testing.T) { testRoutes(t, svc) })
		t.Run("Errors", func(t *testing.T) { testSearchErrors(t, svc) })
	})
}

func testPredicates(t *testing.T, svc *Service) {
	tests := []struct {
		name string
		q    []string
		want string // sorted IDs
	}{
		{"type", []string{`[[at(document.type, "news_item")]]`}, "n1,n2,n3,n4"},
		{"id", []string{`[[at(document.id, "about")]]`}, "about"},
		{"legacy alias", []string{`[[:d = at(document.id, "about") ]]`}, "about"},
		{"unknown id", []string{`[[at(document.id, "nope")]]`}, ""},
		{"uid", []string{`[[at(document.type, "page")]]`, `[[at(my.page.uid, "history")]]`}, "history"},
		{"tag", []string{`[[at(document.tags, "events")]]`}, "e1,e2,n2"},
		{"all tags", []string{`[[at(document.tags, ["news", "events"])]]`}, "n2"},
		{"any tags", []string{`[[any(document.tags, ["governance", "events"])]]`}, "about,e1,e2,history,n2"},
		{"multi in one q", []string{`[[at(document.type, "news_item")][at(document.tags, "events")]]`}, "n2"},
		{"not type", []string{`[[not(document.type, "news_item")][not(document.type, "page")]]`}, "e1,e2,jane"},
		{"not field keeps type", []string{`[[not(my.news_item.priority, 3)]]`}, "n2,n3,n4"},
		{"any types", []string{`[[any(document.type, ["author", "event"])]]`}, "e1,e2,jane"},
		{"in ids", []string{`[[in(document.id, ["n1", "e1", "nope", "n1"])]]`}, "e1,n1"},
		{"in uids", []string{`[[in(my.news_item.uid, ["open-day", "new-indexes"])]]`}, "n2,n3"},
		{"at number", []string{`[[at(my.news_item.priority, 5)]]`}, "n3"},
		{"at boolean", []string{`[[at(my.news_item.featured, true)]]`}, "n1"},
		{"at key text", []string{`[[at(my.page.description, "Who we are")]]`}, "about"},
		{"at date field", []string{`[[at(my.news_item.date, "2024-03-15")]]`}, "n2"},
		{"at relationship", []string{`[[at(my.page.parent, "about")]]`}, "history"},
		{"any relationship", []string{`[[any(my.page.parent, ["about", "home"])]]`}, "about,history"},
		{"at in group", []string{`[[at(my.news_item.group.name, "beta")]]`}, "n1"},
		{"fulltext document", []string{`[[fulltext(document, "parish registers")]]`}, "n1,n3"},
		{"fulltext prefix", []string{`[[fulltext(document, "regist")]]`}, "n1,n3"},
		{"fulltext accents", []string{`[[fulltext(document, "seamus")]]`}, "n2"},
		{"fulltext case", []string{`[[fulltext(document, "DUBLIN")]]`}, "n1"},
		{"fulltext field", []string{`[[fulltext(my.news_item.title, "parish")]]`}, "n3"},
		{"fulltext no url text", []string{`[[fulltext(document, "media")]]`}, ""},
		{"has", []string{`[[has(my.news_item.date)]]`}, "n1,n2,n3"},
		{"has image (empty image is missing)", []string{`[[has(my.news_item.image)]]`}, "n1"},
		{"missing", []string{`[[missing(my.news_item.date)]]`}, "n4"},
		{"missing rich text", []string{`[[missing(my.news_item.summary)]]`}, "n3,n4"},
		{"has link", []string{`[[has(my.news_item.author)]]`}, "n1,n2"},
		{"number lt", []string{`[[number.lt(my.news_item.priority, 3)]]`}, "n2,n4"},
		{"number gt", []string{`[[number.gt(my.news_item.priority, 2)]]`}, "n1,n3"},
		{"number inRange", []string{`[[number.inRange(my.news_item.priority, 2, 3)]]`}, "n1,n4"},
		{"date after epoch", []string{`[[date.after(my.news_item.date, 1709251200000)]]`}, "n2,n3"}, // 2024-03-01
		{"date after zero", []string{`[[date.after(my.news_item.date, 0)]]`}, "n1,n2,n3"},
		{"date before iso", []string{`[[date.before(my.news_item.date, "2024-03-15")]]`}, "n1"},
		{"date between inclusive", []string{`[[date.between(my.news_item.date, "2024-02-10", "2024-03-15")]]`}, "n1,n2"},
		{"first publication", []string{`[[date.after(document.first_publication_date, "2024-03-01T00:00:00+0000")]]`}, "n2,n3,n4"},
		{"last publication", []string{`[[date.before(document.last_publication_date, "2024-01-01T10:30:00Z")]]`}, "home"},
		{"timestamp field", []string{`[[date.after(my.event.start, "2024-07-01")]]`}, "e2"},
		{"day of month", []string{`[[date.day-of-month(my.news_item.date, 15)]]`}, "n2"},
		{"day of month after", []string{`[[date.day-of-month-after(my.news_item.date, 14)]]`}, "n2,n3"},
		{"day of month before", []string{`[[date.day-of-month-before(my.news_item.date, 15)]]`}, "n1"},
		{"day of week", []string{`[[date.day-of-week(my.event.start, "sunday")]]`}, "e1"}, // 2024-06-16 is a Sunday
		{"day of week number", []string{`[[date.day-of-week(my.event.start, 2)]]`}, "e2"}, // 2024-12-03 is a Tuesday
		{"day of week after", []string{`[[date.day-of-week-after(my.event.start, 2)]]`}, "e1"},
		{"day of week before", []string{`[[date.day-of-week-before(my.event.start, "wednesday")]]`}, "e2"},
		{"month", []string{`[[date.month(my.news_item.date, "march")]]`}, "n2"},
		{"month after", []string{`[[date.month-after(my.news_item.date, 2)]]`}, "n2,n3"},
		{"month before", []string{`[[date.month-before(my.news_item.date, 3)]]`}, "n1"},
		{"year", []string{`[[date.year(document.first_publication_date, 2024)]]`}, "about,e1,e2,history,home,jane,n1,n2,n3,n4"},
		{"hour", []string{`[[date.hour(my.event.start, 13)]]`}, "e1"},
		{"hour after", []string{`[[date.hour-after(my.event.start, 10)]]`}, "e1"},
		{"hour before", []string{`[[date.hour-before(my.event.start, 10)]]`}, "e2"},
		{"geopoint near", []string{`[[geopoint.near(my.event.where, 53.35, -6.26, 5)]]`}, "e1"},
		{"geopoint far", []string{`[[geopoint.near(my.event.where, 53.35, -6.26, 500)]]`}, "e1,e2"},
		{"similar", []string{`[[similar("n3", 1)]]`}, "n1"},
		{"similar unknown", []string{`[[similar("nope", 5)]]`}, ""},
		{"unknown custom type", []string{`[[at(my.country.uid, "ie")]]`}, ""},
		{"unknown type missing", []string{`[[missing(my.country.flag)]]`}, ""},
		{"empty q ignored", []string{``, `[[at(document.id, "about")]]`}, "about"},
		{"empty list", []string{`[]`}, "about,e1,e2,history,home,jane,n1,n2,n3,n4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sortedIDs(searchIDs(t, svc, SearchParams{Q: tt.q, PageSize: 100}))
			if got != tt.want {
				t.Errorf("q %v = [%s], want [%s]", tt.q, got, tt.want)
			}
		})
	}
}

func testOrderings(t *testing.T, svc *Service) {
	news := []string{`[[at(document.type, "news_item")]]`}
	tests := []struct {
		orderings string
		want      string
	}{
		{"", "n1,n2,n3,n4"},
		{"[my.news_item.date desc]", "n3,n2,n1,n4"}, // missing last in either direction
		{"[my.news_item.date]", "n1,n2,n3,n4"},
		{"[[my.news_item.date desc]]", "n3,n2,n1,n4"},
		{"[my.news_item.priority]", "n2,n4,n1,n3"},
		{"[my.news_item.priority desc]", "n3,n1,n4,n2"},
		{"[my.news_item.title]", "n3,n2,n1,n4"}, // rich text by its text: New, Open, The, Undated
		{"[document.first_publication_date desc]", "n4,n3,n2,n1"},
		{"[document.last_publication_date asc]", "n1,n2,n3,n4"},
		{"[my.news_item.featured desc,my.news_item.priority]", "n1,n2,n4,n3"},
		{"[my.other.field desc,document.first_publication_date desc]", "n4,n3,n2,n1"},
	}
	for _, tt := range tests {
		got := strings.Join(searchIDs(t, svc, SearchParams{Q: news, Orderings: tt.orderings}), ",")
		if got != tt.want {
			t.Errorf("orderings %q = %s, want %s", tt.orderings, got, tt.want)
		}
	}
	// Memoised sorts give the same answer as fresh ones.
	for i := 0; i < 2; i++ {
		if got := strings.Join(searchIDs(t, svc, SearchParams{Q: news, Orderings: "[my.news_item.date desc]"}), ","); got != "n3,n2,n1,n4" {
			t.Fatalf("repeat %d: %s", i, got)
		}
	}
}

func testPaging(t *testing.T, svc *Service) {
	all := []string{`[[any(document.type, ["news_item", "event"])]]`}
	ord := "[document.first_publication_date]"
	// e1, e2, n1, n2, n3, n4 by first publication
	res := search(t, svc, SearchParams{Q: all, Orderings: ord, PageSize: 4})
	if res.Page != 1 || res.ResultsPerPage != 4 || res.ResultsSize != 4 || res.TotalResultsSize != 6 || res.TotalPages != 2 {
		t.Fatalf("page 1 envelope %+v", res)
	}
	res = search(t, svc, SearchParams{Q: all, Orderings: ord, PageSize: 4, Page: 2})
	if ids := idsOf(res); ids != "n3,n4" || res.ResultsSize != 2 || res.Page != 2 {
		t.Fatalf("page 2 = %s %+v", ids, res)
	}
	res = search(t, svc, SearchParams{Q: all, Orderings: ord, PageSize: 4, Page: 3})
	if len(res.Results) != 0 || res.TotalPages != 2 {
		t.Fatalf("page 3 = %+v", res)
	}
	// Defaults and clamping.
	res = search(t, svc, SearchParams{Q: all})
	if res.ResultsPerPage != 20 || res.Page != 1 {
		t.Fatalf("defaults %+v", res)
	}
	if res = search(t, svc, SearchParams{Q: all, PageSize: 1000}); res.ResultsPerPage != 100 {
		t.Fatalf("pageSize 1000 gave %d per page", res.ResultsPerPage)
	}
	// after: a cursor in the current ordering.
	if ids := idsOf(search(t, svc, SearchParams{Q: all, Orderings: ord, After: "n1"})); ids != "n2,n3,n4" {
		t.Errorf("after n1 = %s", ids)
	}
	if ids := idsOf(search(t, svc, SearchParams{Q: all, Orderings: ord, After: "n1", PageSize: 2, Page: 2})); ids != "n4" {
		t.Errorf("after n1 page 2 = %s", ids)
	}
	// A cursor outside the results cuts where it would sort: e2 was first published
	// between the last page (history) and the first news item.
	pagesAndNews := []string{`[[any(document.type, ["page", "news_item"])]]`}
	if ids := idsOf(search(t, svc, SearchParams{Q: pagesAndNews, Orderings: ord, After: "e2"})); ids != "n1,n2,n3,n4" {
		t.Errorf("after e2 = %s", ids)
	}
	if ids := idsOf(search(t, svc, SearchParams{Q: all, Orderings: ord, After: "nope"})); ids != "" {
		t.Errorf("after unknown = %s", ids)
	}
}

func idsOf(res *SearchResult) string {
	var ids []string
	for _, d := range res.Results {
		ids = append(ids, d.ID)
	}
	return strings.Join(ids, ",")
}

func testLang(t *testing.T, svc *Service) {
	q := []string{`[[at(my.page.uid, "home")]]`}
	if ids := idsOf(search(t, svc, SearchParams{Q: q})); ids != "home" {
		t.Errorf("default (master) language = %s", ids)
	}
	if ids := idsOf(search(t, svc, SearchParams{Q: q, Lang: "*"})); ids != "home,home-fr" {
		t.Errorf("lang * = %s", ids)
	}
	if ids := idsOf(search(t, svc, SearchParams{Q: q, Lang: "fr-fr"})); ids != "home-fr" {
		t.Errorf("lang fr-fr = %s", ids)
	}
	if ids := idsOf(search(t, svc, SearchParams{Q: q, Lang: "de-de"})); ids != "" {
		t.Errorf("lang de-de = %s", ids)
	}
	doc := search(t, svc, SearchParams{Q: []string{`[[at(document.id, "home")]]`}}).Results[0]
	if got := jsonOf(t, doc.AlternateLanguages); got != `[{"id":"home-fr","uid":"home","type":"page","lang":"fr-fr"}]` {
		t.Errorf("alternate_languages = %s", got)
	}
	// The link is symmetric even though only one side needs to name it.
	fr := search(t, svc, SearchParams{Q: []string{`[[at(document.id, "home-fr")]]`}, Lang: "*"}).Results[0]
	if got := jsonOf(t, fr.AlternateLanguages); got != `[{"id":"home","uid":"home","type":"page","lang":"en-gb"}]` {
		t.Errorf("alternate_languages of fr = %s", got)
	}
}

func testDocumentShape(t *testing.T, svc *Service) {
	ref := masterRef(t, svc)
	res := search(t, svc, SearchParams{Q: []string{`[[at(document.id, "n1")]]`}})
	d := res.Results[0]
	if d.UID == nil || *d.UID != "census-1851" || d.URL != nil || d.Type != "news_item" || d.Lang != "en-gb" {
		t.Errorf("document %+v", d)
	}
	if *d.FirstPublicationDate != "2024-02-10T09:00:00+0000" || *d.LastPublicationDate != "2024-02-10T10:00:00+0000" {
		t.Errorf("dates %s %s", *d.FirstPublicationDate, *d.LastPublicationDate)
	}
	if jsonOf(t, d.Slugs) != `["the-1851-census-is-online"]` || jsonOf(t, d.LinkedDocuments) != `[]` || jsonOf(t, d.Tags) != `["news"]` {
		t.Errorf("slugs %v linked %v tags %v", d.Slugs, d.LinkedDocuments, d.Tags)
	}
	wantHref := "https://lineage.example/content/api/v2/documents/search?q=%5B%5B%3Ad+%3D+at%28document.id%2C+%22n1%22%29+%5D%5D&ref=" + ref
	if d.Href != wantHref {
		t.Errorf("href = %s\nwant   %s", d.Href, wantHref)
	}
	img := d.Data["image"].(map[string]any)
	if img["url"] != "https://lineage.example/media/census.png" {
		t.Errorf("image url %v", img["url"])
	}
	if d.Data["priority"] == nil || jsonOf(t, d.Data["priority"]) != "3" {
		t.Errorf("number field %v", d.Data["priority"])
	}
	// A document without a uid has "uid": null; check the JSON directly.
	if s := jsonOf(t, &ResultDocument{Data: map[string]any{}}); !strings.Contains(s, `"uid":null`) || !strings.Contains(s, `"url":null`) {
		t.Errorf("null fields: %s", s)
	}
	// Media URLs inside slices and rich text become absolute too; the snapshot stays
	// root-relative (rendering copies).
	home := search(t, svc, SearchParams{Q: []string{`[[at(document.id, "home")]]`}, Origin: "http://other.example"}).Results[0]
	hero := home.Data["body"].([]any)[0].(map[string]any)
	if u := hero["primary"].(map[string]any)["image"].(map[string]any)["url"]; u != "http://other.example/media/church.svg" {
		t.Errorf("slice image url %v", u)
	}
	home = search(t, svc, SearchParams{Q: []string{`[[at(document.id, "home")]]`}}).Results[0]
	hero = home.Data["body"].([]any)[0].(map[string]any)
	if u := hero["primary"].(map[string]any)["image"].(map[string]any)["url"]; u != "https://lineage.example/media/church.svg" {
		t.Errorf("slice image url after another origin %v", u)
	}
}

func testLinks(t *testing.T, svc *Service) {
	d := search(t, svc, SearchParams{Q: []string{`[[at(document.id, "n1")]]`}, BrokenRoute: "/404"}).Results[0]
	author := d.Data["author"].(map[string]any)
	want := `{"id":"jane","isBroken":false,"lang":"en-gb","link_type":"Document","slug":"jane-doe","tags":[],"type":"author","uid":"jane-doe"}`
	if got := jsonOf(t, author); got != want {
		t.Errorf("author link = %s\nwant          %s", got, want)
	}
	broken := d.Data["related"].(map[string]any)
	if broken["isBroken"] != true || broken["url"] != "/404" || broken["type"] != "page" {
		t.Errorf("broken link = %v", broken)
	}
	// A stored link's stale type/uid is replaced by the target's.
	h := search(t, svc, SearchParams{Q: []string{`[[at(document.id, "history")]]`}}).Results[0]
	if p := h.Data["parent"].(map[string]any); p["slug"] != "about-the-society" || p["isBroken"] != false {
		t.Errorf("parent link = %v", p)
	}
	// Hyperlink spans in rich text are document links too.
	home := search(t, svc, SearchParams{Q: []string{`[[at(document.id, "home")]]`}}).Results[0]
	rt := home.Data["body"].([]any)[1].(map[string]any)["primary"].(map[string]any)["content"].([]any)[0].(map[string]any)
	span := rt["spans"].([]any)[0].(map[string]any)["data"].(map[string]any)
	if span["type"] != "page" || span["uid"] != "about" {
		t.Errorf("span link = %v", span)
	}
	if p := home.Data["parent"].(map[string]any); jsonOf(t, p) != `{"link_type":"Any"}` {
		t.Errorf("empty link = %v", p)
	}
	// Without brokenRoute a broken link has no url.
	d = search(t, svc, SearchParams{Q: []string{`[[at(document.id, "n1")]]`}}).Results[0]
	if _, ok := d.Data["related"].(map[string]any)["url"]; ok {
		t.Errorf("broken link has a url without brokenRoute")
	}
}

func testFetchLinks(t *testing.T, svc *Service) {
	for _, fl := range []string{"author.name,author.photo", "[author.name, author.photo]"} {
		d := search(t, svc, SearchParams{Q: []string{`[[at(document.id, "n1")]]`}, FetchLinks: fl}).Results[0]
		data, ok := d.Data["author"].(map[string]any)["data"].(map[string]any)
		if !ok {
			t.Fatalf("fetchLinks %q: no data on the link: %v", fl, d.Data["author"])
		}
		if data["name"] != "Jane Doe" || data["bio"] != nil {
			t.Errorf("fetchLinks %q data = %v", fl, data)
		}
		if u := data["photo"].(map[string]any)["url"]; u != "https://lineage.example/media/jane.png" {
			t.Errorf("fetched image url %v", u)
		}
	}
	// Links to other types get no data; data is omitted rather than empty.
	d := search(t, svc, SearchParams{Q: []string{`[[at(document.id, "history")]]`}, FetchLinks: "author.name"}).Results[0]
	if _, ok := d.Data["parent"].(map[string]any)["data"]; ok {
		t.Errorf("a page link got author data")
	}
}

func testFetch(t *testing.T, svc *Service) {
	d := search(t, svc, SearchParams{Q: []string{`[[at(document.id, "n1")]]`}, Fetch: "news_item.title,news_item.date"}).Results[0]
	if len(d.Data) != 2 || d.Data["title"] == nil || d.Data["date"] != "2024-02-10" {
		t.Errorf("fetch data = %v", d.Data)
	}
	p := search(t, svc, SearchParams{Q: []string{`[[at(document.id, "about")]]`}, Fetch: "news_item.title"}).Results[0]
	if p.Data["description"] != "Who we are" {
		t.Errorf("fetch for another type changed a page: %v", p.Data)
	}
}

func testGraphQuery(t *testing.T, svc *Service) {
	gq := `{
	  news_item {
	    title
	    author { ...on author { name photo } }
	    group { name }
	  }
	  page {
	    parent { ...on page { title parent { ...on page { uid } } } }
	    body {
	      ...on hero { variation { ...on default { primary { title link { ...on page { description } } } } } }
	    }
	  }
	}`
	res := search(t, svc, SearchParams{Q: []string{`[[in(document.id, ["n1", "history", "home", "e1"])]]`}, GraphQuery: gq})
	byID := map[string]*ResultDocument{}
	for _, d := range res.Results {
		byID[d.ID] = d
	}
	n1 := byID["n1"].Data
	if len(n1) != 3 || n1["summary"] != nil {
		t.Errorf("news_item keys = %v", n1)
	}
	if got := jsonOf(t, n1["author"].(map[string]any)["data"]); got != `{"name":"Jane Doe","photo":{"dimensions":{"height":10,"width":10},"url":"https://lineage.example/media/jane.png"}}` {
		t.Errorf("author data = %s", got)
	}
	if got := jsonOf(t, n1["group"]); got != `[{"name":"alpha"},{"name":"beta"}]` {
		t.Errorf("group = %s", got)
	}
	h := byID["history"].Data
	pdata := h["parent"].(map[string]any)["data"].(map[string]any)
	if asText(pdata["title"]) != "About the Society" {
		t.Errorf("parent title = %v", pdata)
	}
	if gp := pdata["parent"].(map[string]any)["data"].(map[string]any); gp["uid"] != nil || len(gp) != 0 {
		// uid is a document property, not data: selecting it yields nothing in data
		t.Errorf("grandparent data = %v", gp)
	}
	if gp := pdata["parent"].(map[string]any); gp["uid"] != "home" {
		t.Errorf("grandparent link = %v", gp)
	}
	body := byID["home"].Data["body"].([]any)
	if len(body) != 1 {
		t.Fatalf("unselected slices kept: %v", body)
	}
	hero := body[0].(map[string]any)
	prim := hero["primary"].(map[string]any)
	if hero["slice_type"] != "hero" || hero["id"] != "hero$1" || prim["image"] != nil || prim["title"] == nil {
		t.Errorf("hero = %v", hero)
	}
	if d := prim["link"].(map[string]any)["data"].(map[string]any); d["description"] != "Who we are" {
		t.Errorf("hero link data = %v", d)
	}
	if e1 := byID["e1"].Data; e1["where"] == nil || e1["start"] == nil {
		t.Errorf("a type the query does not name lost fields: %v", e1)
	}
	// ...typeFields selects everything.
	all := search(t, svc, SearchParams{Q: []string{`[[at(document.id, "n1")]]`}, GraphQuery: `{ news_item { ...news_itemFields } }`}).Results[0]
	if len(all.Data) != len(fixtureField(t, "n1")) {
		t.Errorf("spread kept %d fields", len(all.Data))
	}
}

func fixtureField(t *testing.T, id string) map[string]any {
	for _, d := range fixtureDocs() {
		if d.ID == id {
			m, err := decodeData(d.Data)
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
	}
	t.Fatalf("no fixture %s", id)
	return nil
}

func testRoutes(t *testing.T, svc *Service) {
	routes := `[
	  {"type":"page","path":"/:lang?/:uid"},
	  {"type":"page","uid":"home","path":"/:lang?"},
	  {"type":"news_item","path":"/news/:uid"},
	  {"type":"author","path":"/people/:uid"},
	  {"type":"event","path":"/events/:parent/:uid","resolvers":{"parent":"missing_field"}}
	]`
	res := search(t, svc, SearchParams{Q: []string{`[[in(document.id, ["home", "home-fr", "about", "n1", "e1"])]]`}, Lang: "*", Routes: routes})
	got := map[string]string{}
	for _, d := range res.Results {
		if d.URL == nil {
			got[d.ID] = "<nil>"
		} else {
			got[d.ID] = *d.URL
		}
	}
	want := map[string]string{"home": "/", "home-fr": "/fr-fr", "about": "/about", "n1": "/news/census-1851", "e1": "<nil>"}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("url of %s = %s, want %s", id, got[id], w)
		}
	}
	for _, d := range res.Results {
		if d.ID == "n1" {
			if u := d.Data["author"].(map[string]any)["url"]; u != "/people/jane-doe" {
				t.Errorf("link url = %v", u)
			}
		}
	}
	// Resolvers follow content relationships, nested with dots.
	nested := `[{"type":"page","path":"/:grand/:parent/:uid","resolvers":{"parent":"parent","grand":"parent.parent"}},
	            {"type":"page","path":"/:parent?/:uid","resolvers":{"parent":"parent"}}]`
	h := search(t, svc, SearchParams{Q: []string{`[[at(document.id, "history")]]`}, Routes: nested}).Results[0]
	if h.URL == nil || *h.URL != "/home/about/history" {
		t.Errorf("nested resolver url = %v", h.URL)
	}
	// The first route for a type decides; an optional resolver may be left out.
	opt := `[{"type":"page","path":"/:parent?/:uid","resolvers":{"parent":"parent"}}]`
	res = search(t, svc, SearchParams{Q: []string{`[[in(document.id, ["home", "about"])]]`}, Routes: opt})
	for _, d := range res.Results {
		want := map[string]string{"home": "/home", "about": "/home/about"}[d.ID]
		if d.URL == nil || *d.URL != want {
			t.Errorf("optional resolver: url of %s = %v, want %s", d.ID, d.URL, want)
		}
	}
}

func testSearchErrors(t *testing.T, svc *Service) {
	ref := masterRef(t, svc)
	tests := []struct {
		name string
		p    SearchParams
		kind ErrorKind
		msg  string
	}{
		{"bad q", SearchParams{Q: []string{`[[at(document.type, "x")]]`, `[[at(document.nope, "x")]]`}}, KindParsing, "unexpected field 'document.nope'"},
		{"bad orderings", SearchParams{Orderings: "[my.page.title up]"}, KindParsing, "unknown direction"},
		{"bad routes", SearchParams{Routes: "[{"}, KindParsing, "routes must be a JSON array"},
		{"bad graphQuery", SearchParams{GraphQuery: "{ page { "}, KindParsing, "graphQuery"},
		{"bad fetchLinks", SearchParams{FetchLinks: "author"}, KindParsing, "fetchLinks"},
		{"no ref", SearchParams{Ref: "-"}, KindRefNotFound, "Master ref is: " + ref},
	}
	for _, tt := range tests {
		p := tt.p
		if p.Ref == "" {
			p.Ref = ref
		} else if p.Ref == "-" {
			p.Ref = "unknown-ref"
		}
		_, err := svc.Search(context.Background(), p)
		e, ok := AsError(err)
		if !ok || e.Kind != tt.kind || !strings.Contains(e.Message, tt.msg) {
			t.Errorf("%s: err = %v (%+v), want kind %d with %q", tt.name, err, e, tt.kind, tt.msg)
		}
		if tt.name == "bad q" && (e.QueryID != 2 || e.Line != 1 || e.Column != 6) {
			t.Errorf("bad q position: id %d line %d col %d", e.QueryID, e.Line, e.Column)
		}
	}
}
