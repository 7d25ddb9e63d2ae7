package research

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"strings"

	"lineage/internal/names"
	"lineage/internal/research/gazetteer"
	"lineage/internal/research/search"
)

// GlobalLimit is how many entries each group of the global search shows.
const GlobalLimit = 10

// GlobalGroup is one table of the global search.
type GlobalGroup struct {
	Total      int64 `json:"total"`
	TotalExact bool  `json:"total_exact"`
	Results    []any `json:"results"`
	// Search is the query string of the full search behind this group (for the index:
	// /api/research/search parameters), empty when there is none.
	Search string `json:"search"`
}

// GlobalResult is the answer of /api/search: the four tables of the global search.
type GlobalResult struct {
	Q           string      `json:"q"`
	Archive     GlobalGroup `json:"archive"`
	FamilyTrees GlobalGroup `json:"family_trees"`
	Index       GlobalGroup `json:"index"`
	Library     GlobalGroup `json:"library"`
	// Reading is how the text was read as a name search for the index and the
	// family trees; null when it names nobody.
	Reading *Reading `json:"reading"`
}

// Reading is how the global search read its free text as a name search: "John Smith
// 1850" is surname Smith, forenames John, year 1850 ± 2. Text says it back to the
// reader ("Smith, John, 1850 ± 2"). When the reading finds no index record, the
// search widens the year (± 10, then any year); Asked then says what was read first.
type Reading struct {
	Surname string `json:"surname"`
	Given   string `json:"given"`
	Year    int    `json:"year"`
	YearPM  int    `json:"year_pm"`
	Place   string `json:"place"`
	Text    string `json:"text"`
	Asked   string `json:"asked"`
}

// yearPMs are the tolerances the global search tries in turn when a read year finds
// nothing in the index; -1 drops the year.
var yearPMs = []int{2, 10, -1}

// maxGiven is how many forenames the index takes (as names.Fold splits them); the
// reading keeps the first ones.
const maxGiven = 6

// readQuery reads free text as names, a year and a place. A number from 1000 to 2099
// is the year (the first one); words after "in", or else the last one or two words, are
// the place when isPlace knows them (after "in", with a name left; else with two); of
// the names, the last word is
// the surname and the words before it the forenames, unless the first word ends in a
// comma ("Smith, John"). ok is false when no name is left.
func readQuery(text string, isPlace func(string) bool) (r Reading, ok bool) {
	type word struct {
		text  string
		comma bool
	}
	var words []word
	for _, f := range strings.Fields(strings.ToValidUTF8(text, " ")) {
		comma := strings.HasSuffix(f, ",")
		f = strings.Trim(f, ",;")
		if f == "" {
			if len(words) > 0 {
				words[len(words)-1].comma = true
			}
			continue
		}
		for k, part := range strings.Split(f, ",") {
			if part == "" {
				continue
			}
			if k > 0 && len(words) > 0 {
				words[len(words)-1].comma = true
			}
			if len(part) == 4 && search.IsDigits(part) && part >= "1000" && part <= "2099" {
				if r.Year == 0 {
					r.Year, r.YearPM = atoi(part), yearPMs[0]
				}
				continue
			}
			if names.Fold(part) != "" {
				words = append(words, word{text: part})
			}
		}
		if comma && len(words) > 0 {
			words[len(words)-1].comma = true
		}
	}
	join := func(ws []word) string {
		out := make([]string, len(ws))
		for i, w := range ws {
			out[i] = w.text
		}
		return strings.Join(out, " ")
	}
	// placeOf keeps the commas a place was typed with: "Halifax, Yorkshire".
	placeOf := func(ws []word) string {
		var b strings.Builder
		for i, w := range ws {
			if i > 0 {
				if ws[i-1].comma {
					b.WriteString(",")
				}
				b.WriteString(" ")
			}
			b.WriteString(w.text)
		}
		return b.String()
	}
	if isPlace != nil {
		in := -1
		for i, w := range words {
			if i > 0 && i < len(words)-1 && strings.EqualFold(w.text, "in") {
				in = i
			}
		}
		switch {
		case in > 0 && isPlace(placeOf(words[in+1:])):
			r.Place, words = placeOf(words[in+1:]), words[:in]
		case in > 0: // "in" an unknown place: the words are names, "in" is not
			words = append(words[:in:in], words[in+1:]...)
		default:
			// Only with a forename and a surname left: "John Kent" is a name, and a
			// surname that is also a place ("Windsor") is read as the surname.
			for n := min(2, len(words)-2); n >= 1; n-- {
				if p := placeOf(words[len(words)-n:]); isPlace(p) {
					r.Place, words = p, words[:len(words)-n]
					break
				}
			}
		}
	}
	if len(words) == 0 {
		return Reading{}, false
	}
	var given []word
	if words[0].comma && len(words) > 1 {
		r.Surname, given = words[0].text, words[1:]
	} else {
		r.Surname, given = words[len(words)-1].text, words[:len(words)-1]
	}
	var kept []word
	for n := 0; len(given) > 0; given = given[1:] {
		if n += len(strings.Fields(names.Fold(given[0].text))); n > maxGiven {
			break
		}
		kept = append(kept, given[0])
	}
	r.Given = join(kept)
	r.Text = r.say()
	return r, true
}

// say is the reading in words: "Smith, John, 1850 ± 2, Halifax".
func (r Reading) say() string {
	parts := []string{r.Surname}
	if r.Given != "" {
		parts = append(parts, r.Given)
	}
	if r.Year != 0 {
		parts = append(parts, strconv.Itoa(r.Year)+" ± "+strconv.Itoa(r.YearPM))
	}
	if r.Place != "" {
		parts = append(parts, r.Place)
	}
	return strings.Join(parts, ", ")
}

// values is the reading as /api/research/search parameters.
func (r Reading) values() url.Values {
	v := url.Values{}
	v.Set("surname", r.Surname)
	v.Set("surname_mode", ModeVariants)
	if strings.ContainsAny(r.Surname, "*?") {
		v.Set("surname_mode", names.ModeWildcard) // "Sm*th": the pattern, as typed
	}
	if r.Given != "" {
		v.Set("given", r.Given)
	}
	if r.Year != 0 {
		v.Set("year", strconv.Itoa(r.Year))
		v.Set("year_pm", strconv.Itoa(r.YearPM))
	}
	if r.Place != "" {
		v.Set("place", r.Place)
	}
	return v
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// TreeSearcher finds people in family trees for the 'family trees' group of the
// global search; internal/trees implements it. q holds the name search read from the
// free text (surname, surname_mode, given, year, year_pm); results are the group's
// entries, search the query string of the full pedigree search. The implementation
// applies its own privacy rules to the reader on ctx.
type TreeSearcher interface {
	GlobalTrees(ctx context.Context, q url.Values, limit int) (results []any, total int64, search string, err error)
}

// SetTreeSearcher makes the global search fill its 'family trees' group from t. Call
// it before serving.
func (s *Service) SetTreeSearcher(t TreeSearcher) { s.trees = t }

// Global runs the global search over the archive and library catalogues, the index
// records and, when a TreeSearcher is set, the family trees.
func (s *Service) Global(ctx context.Context, text string, scope []string) (*GlobalResult, error) {
	text = strings.TrimSpace(text)
	out := &GlobalResult{Q: text}
	for _, g := range []*GlobalGroup{&out.Archive, &out.FamilyTrees, &out.Index, &out.Library} {
		g.Results, g.TotalExact = []any{}, true
	}
	var err error
	if out.Archive.Results, out.Archive.Total, err = s.catalogueSearch(ctx, "archive_items", text, GlobalLimit); err != nil {
		return nil, err
	}
	if out.Library.Results, out.Library.Total, err = s.catalogueSearch(ctx, "library_items", text, GlobalLimit); err != nil {
		return nil, err
	}
	read, ok := readQuery(text, s.knownPlace(ctx))
	if !ok {
		return out, nil
	}
	asked := read.Text
	for _, pm := range yearPMs {
		if read.Year != 0 {
			if pm < 0 {
				read.Year, read.YearPM = 0, 0
			} else {
				read.YearPM = pm
			}
		}
		read.Text = read.say()
		if err := s.globalIndex(ctx, read.values(), scope, &out.Index); err != nil {
			return nil, err
		}
		if out.Index.Total > 0 || read.Year == 0 {
			break
		}
	}
	if read.Text != asked {
		read.Asked = asked
	}
	out.Reading = &read
	if s.trees != nil {
		v := read.values()
		v.Del("place") // the trees' people search takes names and a year
		res, total, search, err := s.trees.GlobalTrees(ctx, v, GlobalLimit)
		if err != nil {
			return nil, err
		}
		out.FamilyTrees.Results, out.FamilyTrees.Total, out.FamilyTrees.Search = res, total, search
		if out.FamilyTrees.Results == nil {
			out.FamilyTrees.Results = []any{}
		}
	}
	return out, nil
}

// globalIndex fills the index group from the name search v; a search the index
// refuses (too broad, a field it cannot read) leaves the group empty.
func (s *Service) globalIndex(ctx context.Context, v url.Values, scope []string, g *GlobalGroup) error {
	*g = GlobalGroup{Results: []any{}, TotalExact: true}
	v.Set("limit", strconv.Itoa(GlobalLimit))
	q, ferrs := ParseQuery(v)
	if ferrs != nil {
		return nil
	}
	res, err := s.Search(ctx, q, scope)
	var tooBroad *ErrTooBroad
	var ep *search.InvalidQuery
	switch {
	case errors.As(err, &tooBroad), errors.As(err, &ep):
		return nil
	case err != nil:
		return err
	}
	g.Total, g.TotalExact = res.Total, res.TotalExact
	for _, r := range res.Results {
		g.Results = append(g.Results, r)
	}
	v.Del("limit")
	g.Search = v.Encode()
	return nil
}

// knownPlace reports whether the gazetteer knows a place by the text (a name, or a
// name with its county: "Halifax, Yorkshire").
func (s *Service) knownPlace(ctx context.Context) func(string) bool {
	pr := gazetteer.NewResolver(s.db, nil)
	return func(text string) bool {
		if search.IsDigits(text) {
			return false // FindPlaces reads a number as a place's id
		}
		ps, err := pr.FindPlaces(ctx, text)
		return err == nil && len(ps) > 0
	}
}
