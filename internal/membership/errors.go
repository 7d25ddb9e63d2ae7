package membership

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"lineage/internal/httpx"
)

// Error codes, mapped to statuses in writeError only. The JSON shape is the one auth and
// members answer: {"message"} plus Laravel-style {"errors": {field: [messages]}} on 422.
const (
	EINVALID      = "invalid"      // 422
	EUNAUTHORIZED = "unauthorized" // 401
	EFORBIDDEN    = "forbidden"    // 403
	ENOTFOUND     = "not_found"    // 404
	EMETHOD       = "method"       // 405
	ECONFLICT     = "conflict"     // 409
	ETOOLARGE     = "too_large"    // 413
)

// Error is what the service returns for the client's mistakes; handlers write it.
type Error struct {
	Code    string
	Message string
	Fields  map[string][]string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

var errNotFound = &Error{Code: ENOTFOUND, Message: "Not Found"}

func invalid(field, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	return &Error{Code: EINVALID, Message: msg, Fields: map[string][]string{field: {msg}}}
}

// fieldErrors collects validation errors in order; err builds Laravel's summary
// message: the first error, then "(and N more error[s])".
type fieldErrors struct {
	order  []string
	fields map[string][]string
}

func (f *fieldErrors) add(field, format string, args ...any) {
	if f.fields == nil {
		f.fields = map[string][]string{}
	}
	if _, ok := f.fields[field]; !ok {
		f.order = append(f.order, field)
	}
	f.fields[field] = append(f.fields[field], fmt.Sprintf(format, args...))
}

func (f *fieldErrors) err() error {
	if len(f.fields) == 0 {
		return nil
	}
	n := 0
	for _, v := range f.fields {
		n += len(v)
	}
	msg := f.fields[f.order[0]][0]
	switch n {
	case 1:
	case 2:
		msg += " (and 1 more error)"
	default:
		msg += " (and " + strconv.Itoa(n-1) + " more errors)"
	}
	return &Error{Code: EINVALID, Message: msg, Fields: f.fields}
}

var statusOf = map[string]int{
	EINVALID:      http.StatusUnprocessableEntity,
	EUNAUTHORIZED: http.StatusUnauthorized,
	EFORBIDDEN:    http.StatusForbidden,
	ENOTFOUND:     http.StatusNotFound,
	EMETHOD:       http.StatusMethodNotAllowed,
	ECONFLICT:     http.StatusConflict,
	ETOOLARGE:     http.StatusRequestEntityTooLarge,
}

func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	var e *Error
	if !errors.As(err, &e) {
		log.Error("membership: request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		e = &Error{Code: "internal", Message: "Server Error"}
	}
	status, ok := statusOf[e.Code]
	if !ok {
		status = http.StatusInternalServerError
	}
	body := map[string]any{"message": e.Message}
	if e.Code == EINVALID {
		fields := e.Fields
		if fields == nil {
			fields = map[string][]string{}
		}
		body["errors"] = fields
	}
	httpx.JSON(w, status, body)
}

// maxBody is the largest JSON body the API reads; maxCSV the largest CSV import.
const (
	maxBody = 64 << 10
	maxCSV  = 8 << 20
)

func decodeJSON(w http.ResponseWriter, r *http.Request, dst any) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if err := json.NewDecoder(r.Body).Decode(dst); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &Error{Code: ETOOLARGE, Message: "The request body may be at most 64 KiB."}
		}
		return &Error{Code: EINVALID, Message: "The request body must be a JSON object.", Fields: map[string][]string{}}
	}
	return nil
}

// isUniqueViolation recognises both drivers' unique-constraint errors.
func isUniqueViolation(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") || strings.Contains(msg, "SQLSTATE 23505") ||
		strings.Contains(msg, "duplicate key value")
}
