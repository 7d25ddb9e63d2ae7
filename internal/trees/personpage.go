package trees

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"unicode/utf8"
)

// A person's answer is bounded whatever the file held: each list (names, events,
// parents, siblings, families, sources, notes, media) gives at most Limits.PersonItems
// items and all of them together about Limits.PersonAnswerBytes of JSON; the rest of a
// list comes in pages from PersonSection, and Person.More says where. Inside an item,
// a text is cut at longTextBytes (notes, source texts, event values) or shortTextBytes
// (names, places, dates, titles), and a list (a family's children and events, an
// event's notes, a parent family's partners) is cut to fit: Truncated says so, and those
// parts are not paged (docs/trees.md).
const (
	longTextBytes  = 64 << 10
	shortTextBytes = 1 << 10
)

// PersonSections are the lists of a Person that come in pages.
var PersonSections = []string{"names", "events", "parents", "siblings", "families", "sources", "notes", "media"}

// More is where the rest of a list cut from a person's answer is.
type More struct {
	Total int    `json:"total"`
	Next  string `json:"next"`
}

// PersonSection is one page of one of a person's lists.
type PersonSection struct {
	Section   string  `json:"section"`
	Total     int     `json:"total"`
	Offset    int     `json:"offset"`
	Limit     int     `json:"limit"`
	Results   any     `json:"results"`
	Next      *string `json:"next"`
	Truncated bool    `json:"truncated"`
}

// Person reads a person's page with privacy applied, bounded as above.
func (s *Service) Person(ctx context.Context, slug, id string) (*Person, error) {
	p, err := s.person(ctx, slug, id)
	if err != nil {
		return nil, err
	}
	out := *p
	out.More = map[string]*More{}
	c := &cutter{items: s.limits.PersonItems}
	out.PersonSummary = c.summary(p.PersonSummary)
	budget := s.limits.PersonAnswerBytes
	for _, sec := range PersonSections {
		list := personLists[sec]
		items := list.items(p)
		kept, used := c.fit(items, s.limits.PersonItems, budget, s.limits.PersonAnswerBytes, false)
		budget -= used
		list.set(&out, items[:kept])
		if kept < len(items) {
			out.More[sec] = &More{Total: len(items), Next: sectionURL(slug, id, sec, kept)}
		}
	}
	out.Truncated = c.cut
	return &out, nil
}

// PersonSection reads a page of one of a person's lists (PersonSections): from offset,
// at most limit items (1 to Limits.PersonItems; 0 takes that) and about
// Limits.PersonAnswerBytes, never fewer than one item while any are left.
func (s *Service) PersonSection(ctx context.Context, slug, id, section string, offset, limit int) (*PersonSection, error) {
	list, ok := personLists[section]
	if !ok {
		return nil, ErrNotFound
	}
	if limit <= 0 || limit > s.limits.PersonItems {
		limit = s.limits.PersonItems
	}
	p, err := s.person(ctx, slug, id)
	if err != nil {
		return nil, err
	}
	items := list.items(p)
	c := &cutter{items: s.limits.PersonItems}
	start := min(offset, len(items))
	kept, _ := c.fit(items[start:], limit, s.limits.PersonAnswerBytes, s.limits.PersonAnswerBytes, true)
	results := append([]any{}, items[start:start+kept]...) // [] rather than null when empty
	page := &PersonSection{Section: section, Total: len(items), Offset: offset, Limit: limit, Results: results}
	if start+kept < len(items) {
		next := sectionURL(slug, id, section, start+kept)
		page.Next = &next
	}
	page.Truncated = c.cut
	return page, nil
}

func sectionURL(slug, id, section string, offset int) string {
	return "/api/trees/" + url.PathEscape(slug) + "/people/" + url.PathEscape(id) + "/" + section + "?offset=" + strconv.Itoa(offset)
}

// personList is one of a Person's lists that come in pages. items are its items as
// pointers, so that a cutter can shorten them in place (they are the caller's copies,
// read for this answer); set puts the kept items back, keeping the list's Go type (and
// so its JSON shape: [] for none).
type personList struct {
	items func(*Person) []any
	set   func(p *Person, kept []any)
}

// personLists are PersonSections by name.
var personLists = map[string]personList{
	"names":   listOf(func(p *Person) *[]NameView { return &p.Names }),
	"events":  listOf(func(p *Person) *[]EventView { return &p.Events }),
	"parents": listOf(func(p *Person) *[]ParentFamily { return &p.Parents }),
	"siblings": { // pointers already
		items: func(p *Person) []any { return typedAs[any](p.Siblings) },
		set:   func(p *Person, kept []any) { p.Siblings = typedAs[*PersonSummary](kept) },
	},
	"families": listOf(func(p *Person) *[]FamilyView { return &p.Families }),
	"sources":  listOf(func(p *Person) *[]SourceView { return &p.Sources }),
	"notes":    listOf(func(p *Person) *[]string { return &p.Notes }),
	"media":    listOf(func(p *Person) *[]MediaView { return &p.Media }),
}

// listOf is the personList of the list that field points to.
func listOf[T any](field func(*Person) *[]T) personList {
	return personList{
		items: func(p *Person) []any { return addresses(*field(p)) },
		set:   func(p *Person, kept []any) { *field(p) = collect[T](kept) },
	}
}

// addresses are the addresses of xs' elements.
func addresses[T any](xs []T) []any {
	var out []any
	for i := range xs {
		out = append(out, &xs[i])
	}
	return out
}

// collect are the values items point to.
func collect[T any](items []any) []T {
	out := make([]T, 0, len(items))
	for _, x := range items {
		out = append(out, *x.(*T))
	}
	return out
}

// typedAs is xs as a []T (a type each element has); [] for none.
func typedAs[T, E any](xs []E) []T {
	out := make([]T, 0, len(xs))
	for _, x := range xs {
		out = append(out, any(x).(T))
	}
	return out
}

// cutter shortens what an answer holds and remembers whether it did.
type cutter struct {
	items int // inner lists' length (Limits.PersonItems)
	cut   bool
}

// fit returns how many of items fit in at most limit items and room bytes of JSON, and
// the bytes they take. Each is first shortened in place to what one whole answer may
// hold (itemMax), never to the room left: an item that does not fit whole waits for a
// page of its own. With atLeastOne the first item is kept whatever the room (a page
// must move on).
func (c *cutter) fit(items []any, limit, room, itemMax int, atLeastOne bool) (kept, used int) {
	for _, it := range items {
		if kept == limit || (used >= room && !(atLeastOne && kept == 0)) {
			break
		}
		one := &cutter{items: c.items}
		one.item(it, itemMax)
		n := jsonSize(it)
		if used+n > room && !(atLeastOne && kept == 0) {
			break
		}
		c.cut = c.cut || one.cut
		used += n
		kept++
	}
	return kept, used
}

func jsonSize(v any) int {
	b, _ := json.Marshal(v)
	return len(b)
}

// text cuts s to at most n bytes (at a character boundary), marking the cut with "…".
func (c *cutter) text(s *string, n int) {
	if len(*s) <= n {
		return
	}
	i := n
	for i > 0 && !utf8.RuneStart((*s)[i]) {
		i--
	}
	*s = (*s)[:i] + "…"
	c.cut = true
}

// list cuts a list to at most n items.
func cutList[T any](c *cutter, l *[]T, n int) {
	if len(*l) > n {
		*l = (*l)[:n]
		c.cut = true
	}
}

// halve halves a list, for an item still over the budget.
func halve[T any](c *cutter, l *[]T) bool {
	if len(*l) == 0 {
		return false
	}
	*l = (*l)[:len(*l)/2]
	c.cut = true
	return true
}

// summary returns a copy of a person in a list with its texts cut.
func (c *cutter) summary(p *PersonSummary) *PersonSummary {
	if p == nil {
		return nil
	}
	x := *p
	for _, s := range []*string{&x.ID, &x.Name, &x.Given, &x.Surname, &x.Sex, &x.Pedigree, &x.Family} {
		c.text(s, shortTextBytes)
	}
	for _, e := range []**EventPlace{&x.Birth, &x.Death} {
		if *e == nil {
			continue
		}
		ep := **e
		c.text(&ep.Place, shortTextBytes)
		if ep.Date != nil {
			d := *ep.Date
			c.text(&d.Text, shortTextBytes)
			ep.Date = &d
		}
		*e = &ep
	}
	return &x
}

func (c *cutter) summaries(l *[]*PersonSummary, n int) {
	cutList(c, l, n)
	for i, p := range *l {
		(*l)[i] = c.summary(p)
	}
}

func (c *cutter) event(e *EventView, n int) {
	for _, s := range []*string{&e.Tag, &e.Label, &e.Type, &e.Place, &e.Age, &e.Cause} {
		c.text(s, shortTextBytes)
	}
	c.text(&e.Value, longTextBytes)
	if e.Date != nil {
		d := *e.Date
		c.text(&d.Text, shortTextBytes)
		e.Date = &d
	}
	cutList(c, &e.Notes, n)
	for i := range e.Notes {
		c.text(&e.Notes[i], longTextBytes)
	}
}

// item shortens one item of a list so that it takes at most budget bytes: texts cut,
// inner lists cut to Limits.PersonItems and halved while the item is still too large.
func (c *cutter) item(it any, budget int) {
	n := c.items
	switch x := it.(type) {
	case *NameView:
		for _, s := range []*string{&x.Full, &x.Given, &x.Surname, &x.Prefix, &x.Suffix, &x.Nickname, &x.Type} {
			c.text(s, shortTextBytes)
		}
	case *EventView:
		c.event(x, n)
		for jsonSize(x) > budget && halve(c, &x.Notes) {
		}
	case *ParentFamily:
		c.text(&x.Family, shortTextBytes)
		c.text(&x.Pedigree, shortTextBytes)
		c.summaries(&x.Partners, n)
		for jsonSize(x) > budget && halve(c, &x.Partners) {
		}
	case *PersonSummary:
		*x = *c.summary(x)
	case *FamilyView:
		c.text(&x.ID, shortTextBytes)
		x.Partner = c.summary(x.Partner)
		c.summaries(&x.Children, n)
		cutList(c, &x.Events, n)
		for i := range x.Events {
			c.event(&x.Events[i], n)
		}
		for jsonSize(x) > budget {
			if len(x.Events) >= len(x.Children) {
				if !halve(c, &x.Events) {
					break
				}
			} else if !halve(c, &x.Children) {
				break
			}
		}
	case *SourceView:
		for _, s := range []*string{&x.ID, &x.Title, &x.Author, &x.Publication, &x.Page} {
			c.text(s, shortTextBytes)
		}
		c.text(&x.Text, longTextBytes)
	case *string:
		c.text(x, longTextBytes)
	case *MediaView:
		for _, s := range []*string{&x.File, &x.Format, &x.Title, &x.URL} {
			c.text(s, shortTextBytes)
		}
	}
}
