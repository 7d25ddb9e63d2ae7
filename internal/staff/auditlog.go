package staff

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"lineage/internal/audit"
	"lineage/internal/auth"
	"lineage/internal/httpx"
)

// ParseAuditFilter reads the audit log's filters from a query: actor (an account id),
// action (a name, or a prefix ending in "."), subject, from and to (YYYY-MM-DD, both
// inclusive, or RFC 3339 instants), before (an entry id) and limit (1..200).
func ParseAuditFilter(v url.Values) (audit.Filter, error) {
	var f audit.Filter
	var fe httpx.FieldErrors
	if x := v.Get("actor"); x != "" {
		n, err := strconv.ParseInt(x, 10, 64)
		if err != nil || n <= 0 {
			fe.Add("actor", "The actor must be an account number.")
		}
		f.ActorID = n
	}
	text := func(field string) string {
		x := strings.TrimSpace(v.Get(field))
		if utf8.RuneCountInString(x) > 200 || !utf8.ValidString(x) {
			fe.Add(field, "The %s may be at most 200 characters.", field)
			return ""
		}
		return x
	}
	f.Action, f.Subject = text("action"), text("subject")
	day := func(field string, end bool) time.Time {
		x := strings.TrimSpace(v.Get(field))
		if x == "" {
			return time.Time{}
		}
		if t, err := time.Parse(time.DateOnly, x); err == nil {
			if end {
				t = t.AddDate(0, 0, 1)
			}
			return t
		}
		if t, err := time.Parse(time.RFC3339, x); err == nil {
			return t
		}
		fe.Add(field, "The %s date must look like 2026-11-26.", field)
		return time.Time{}
	}
	f.From, f.To = day("from", false), day("to", true)
	if !f.From.IsZero() && !f.To.IsZero() && !f.From.Before(f.To) {
		fe.Add("to", "The end date must not be before the start date.")
	}
	if x := v.Get("before"); x != "" {
		n, err := strconv.ParseInt(x, 10, 64)
		if err != nil || n <= 0 {
			fe.Add("before", "The before value must be an entry number.")
		}
		f.Before = n
	}
	f.Limit = fe.Whole("limit", v.Get("limit"), 1, audit.MaxPage, f.Limit)
	return f, fe.Err()
}

// ListAudit is GET /api/studio/audit (admins).
func (s *Service) ListAudit(w http.ResponseWriter, r *http.Request, _ *auth.User) error {
	f, err := ParseAuditFilter(r.URL.Query())
	if err != nil {
		return err
	}
	entries, next, err := s.audit.List(r.Context(), f)
	if err != nil {
		return err
	}
	actions, err := s.audit.Actions(r.Context())
	if err != nil {
		return err
	}
	var nb any
	if next != 0 {
		nb = next
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"entries": entries, "next_before": nb, "actions": actions})
	return nil
}

// ExportAudit is GET /api/studio/audit.csv (admins): the entries the filters choose,
// newest first, at most audit.MaxExportRows.
func (s *Service) ExportAudit(w http.ResponseWriter, r *http.Request, _ *auth.User) error {
	f, err := ParseAuditFilter(r.URL.Query())
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="audit-`+s.Now().UTC().Format("20060102")+`.csv"`)
	_, err = s.audit.WriteCSV(r.Context(), w, f)
	if err != nil {
		// The header is out; the log has the cause and the file ends short.
		s.log.Error("staff: audit export", "err", err)
	}
	return nil
}
