package research

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"lineage/internal/names"
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
}

// indexQueryOf reads a name search from free text: a four-digit number is a year (±
// 2), the last word a surname, the words before it given names. ok is false when the
// text names nobody.
func indexQueryOf(text string) (url.Values, bool) {
	var words []string
	year := ""
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return unicode.IsSpace(r) || r == ',' }) {
		if len(w) == 4 && search.IsDigits(w) {
			year = w
			continue
		}
		if names.Fold(w) != "" {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return nil, false
	}
	v := url.Values{}
	v.Set("surname", words[len(words)-1])
	v.Set("surname_mode", ModeVariants)
	if len(words) > 1 {
		v.Set("given", strings.Join(words[:len(words)-1], " "))
	}
	if year != "" {
		v.Set("year", year)
		v.Set("year_pm", "2")
	}
	v.Set("limit", strconv.Itoa(GlobalLimit))
	return v, true
}

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
	if v, ok := indexQueryOf(text); ok {
		q, ferrs := ParseQuery(v)
		if ferrs == nil {
			res, err := s.Search(ctx, q, scope)
			var tooBroad *ErrTooBroad
			var ep *search.InvalidQuery
			switch {
			case errors.As(err, &tooBroad), errors.As(err, &ep):
			case err != nil:
				return nil, err
			default:
				out.Index.Total, out.Index.TotalExact = res.Total, res.TotalExact
				for _, r := range res.Results {
					out.Index.Results = append(out.Index.Results, r)
				}
				v.Del("limit")
				out.Index.Search = v.Encode()
			}
		}
		if s.trees != nil {
			res, total, search, err := s.trees.GlobalTrees(ctx, v, GlobalLimit)
			if err != nil {
				return nil, err
			}
			out.FamilyTrees.Results, out.FamilyTrees.Total, out.FamilyTrees.Search = res, total, search
			if out.FamilyTrees.Results == nil {
				out.FamilyTrees.Results = []any{}
			}
		}
	}
	return out, nil
}
