package httpx

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"mime/multipart"
	"net/http"
	"strconv"
	"time"
)

// Error codes of the JSON API's client errors, mapped to statuses in WriteError only.
const (
	EINVALID      = "invalid"       // 422
	EBADREQUEST   = "bad_request"   // 400: a body that is not what the route takes (a webhook's)
	EUNAUTHORIZED = "unauthorized"  // 401
	EFORBIDDEN    = "forbidden"     // 403
	ENOTFOUND     = "not_found"     // 404
	EMETHOD       = "method"        // 405
	ECONFLICT     = "conflict"      // 409
	ETOOLARGE     = "too_large"     // 413
	ECSRF         = "csrf"          // 419 (Laravel's CSRF token mismatch)
	ETOOMANY      = "too_many"      // 429
	ECANCELED     = "canceled"      // 499 (nginx's Client Closed Request): the caller went away
	EINTERNAL     = "internal"      // 500
	EBADGATEWAY   = "bad_gateway"   // 502: a service we call failed
	EUNAVAILABLE  = "not_available" // 503
)

var statusOf = map[string]int{
	EINVALID:      http.StatusUnprocessableEntity,
	EBADREQUEST:   http.StatusBadRequest,
	EUNAUTHORIZED: http.StatusUnauthorized,
	EFORBIDDEN:    http.StatusForbidden,
	ENOTFOUND:     http.StatusNotFound,
	EMETHOD:       http.StatusMethodNotAllowed,
	ECONFLICT:     http.StatusConflict,
	ETOOLARGE:     http.StatusRequestEntityTooLarge,
	ECSRF:         419,
	ETOOMANY:      http.StatusTooManyRequests,
	ECANCELED:     499,
	EINTERNAL:     http.StatusInternalServerError,
	EBADGATEWAY:   http.StatusBadGateway,
	EUNAVAILABLE:  http.StatusServiceUnavailable,
}

// Status is the HTTP status of an error code; an unknown code is a 500.
func Status(code string) int {
	if s, ok := statusOf[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// The answers every room gives in the same words: to a caller who must sign in first,
// to one who may not, and for what is not there. They are shared: add a header or a
// field to an Error of your own, never to these.
var (
	ErrUnauthenticated = &Error{Code: EUNAUTHORIZED, Message: "Unauthenticated."}
	ErrForbidden       = &Error{Code: EFORBIDDEN, Message: "This action is unauthorized."}
	ErrNotFound        = &Error{Code: ENOTFOUND, Message: "Not Found"}
)

// Error is a client's mistake as a service reports it and a handler answers it: the
// answer is {"message"}, plus Laravel's {"errors": {field: [messages]}} on 422 (and on
// a 413 that names its field), the shape the web app reads next to each form field.
type Error struct {
	Code       string
	Message    string
	Fields     map[string][]string
	RetryAfter time.Duration // sets Retry-After when non-zero
	Header     http.Header   // extra response headers (WWW-Authenticate)
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Invalid is a 422 naming one field.
func Invalid(field, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	return &Error{Code: EINVALID, Message: msg, Fields: map[string][]string{field: {msg}}}
}

// FieldErrors collects validation errors in the order found; Err makes them one 422
// whose message is Laravel's summary: the first error, then "(and N more error[s])".
type FieldErrors struct {
	order  []string
	fields map[string][]string
}

// Add records a message for a field.
func (f *FieldErrors) Add(field, format string, args ...any) {
	if f.fields == nil {
		f.fields = map[string][]string{}
	}
	if _, ok := f.fields[field]; !ok {
		f.order = append(f.order, field)
	}
	f.fields[field] = append(f.fields[field], fmt.Sprintf(format, args...))
}

// Has reports whether a field has an error already.
func (f *FieldErrors) Has(field string) bool { _, ok := f.fields[field]; return ok }

// Whole reads s, a query parameter's value, as a whole number from lo to hi (an
// offset, a limit): "" is def; anything else outside it adds "The <field> must be a
// whole number from lo to hi." and is def.
func (f *FieldErrors) Whole(field, s string, lo, hi, def int) int {
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		f.Add(field, "The %s must be a whole number from %d to %d.", field, lo, hi)
		return def
	}
	return n
}

// Err is nil when nothing was added.
func (f *FieldErrors) Err() error {
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

// WriteError answers err: an *Error with its status and message, anything else as a
// 500 "Server Error" whose cause goes to the log (prefixed by the room's name) and
// never to the client.
func WriteError(w http.ResponseWriter, r *http.Request, log *slog.Logger, room string, err error) {
	var e *Error
	if !errors.As(err, &e) {
		log.Error(room+": request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		e = &Error{Code: EINTERNAL, Message: "Server Error"}
	}
	status := Status(e.Code)
	for k, v := range e.Header {
		w.Header()[k] = v
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((e.RetryAfter+time.Second-1)/time.Second)))
	}
	body := map[string]any{"message": e.Message}
	if e.Code == EINVALID || e.Fields != nil {
		fields := e.Fields
		if fields == nil {
			fields = map[string][]string{}
		}
		body["errors"] = fields
	}
	JSON(w, status, body)
}

// Multipart reads a multipart/form-data body of at most limit bytes part by part as
// it arrives; a body of another kind is a 400 with message, which says what to send.
func Multipart(w http.ResponseWriter, r *http.Request, limit int64, message string) (*multipart.Reader, error) {
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, &Error{Code: EBADREQUEST, Message: message}
	}
	return mr, nil
}

// Parts ranges over the parts of a multipart body in order (for part, err := range
// Parts(mr)): it ends after the last part, or after the error that stops the reading.
func Parts(mr *multipart.Reader) iter.Seq2[*multipart.Part, error] {
	return func(yield func(*multipart.Part, error) bool) {
		for {
			part, err := mr.NextPart()
			if err == io.EOF || !yield(part, err) || err != nil {
				return
			}
		}
	}
}

// MaxJSONBody is the largest JSON body DecodeJSON reads.
const MaxJSONBody = 64 << 10

// DecodeJSON reads a JSON body of at most MaxJSONBody bytes into dst; over it a 413
// that names the limit, and anything unreadable a 422.
func DecodeJSON(w http.ResponseWriter, r *http.Request, dst any) error {
	r.Body = http.MaxBytesReader(w, r.Body, MaxJSONBody)
	if err := json.NewDecoder(r.Body).Decode(dst); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &Error{Code: ETOOLARGE, Message: "The request body may be at most 64 KiB."}
		}
		return &Error{Code: EINVALID, Message: "The request body must be a JSON object.", Fields: map[string][]string{}}
	}
	return nil
}
