package auth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"lineage/internal/httpx"
)

// Error codes; each maps to one HTTP status in writeError and nowhere else.
const (
	EINVALID      = "invalid"       // 422, with field errors
	EUNAUTHORIZED = "unauthorized"  // 401
	EFORBIDDEN    = "forbidden"     // 403
	ENOTFOUND     = "not_found"     // 404
	EMETHOD       = "method"        // 405
	ECONFLICT     = "conflict"      // 409
	ETOOLARGE     = "too_large"     // 413
	ECSRF         = "csrf"          // 419
	ETOOMANY      = "too_many"      // 429
	EINTERNAL     = "internal"      // 500
	EUNAVAILABLE  = "not_available" // 503
)

// Error is the one error type handlers return to the client. Message is shown to the
// user as is; Fields holds Laravel-style validation errors.
type Error struct {
	Code       string
	Message    string
	Fields     map[string][]string
	RetryAfter time.Duration // sets Retry-After when non-zero
	Header     http.Header   // extra response headers (WWW-Authenticate)
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Messages of the Laravel SPA contract, word for word.
const (
	msgUnauthenticated = "Unauthenticated."
	msgCSRF            = "CSRF token mismatch."
	msgBadCredentials  = "These credentials do not match our records."
	msgBothExpired     = "Both token and refresh token have expired. Your request was aborted."
	msgNotVerified     = "Your email address is not verified."
)

func errUnauthenticated() *Error { return &Error{Code: EUNAUTHORIZED, Message: msgUnauthenticated} }

// fieldErrors collects validation errors in order and builds Laravel's summary
// message: the first error, then "(and N more error[s])".
type fieldErrors struct {
	order  []string
	fields map[string][]string
}

func (f *fieldErrors) add(field, msg string) {
	if f.fields == nil {
		f.fields = map[string][]string{}
	}
	if _, ok := f.fields[field]; !ok {
		f.order = append(f.order, field)
	}
	f.fields[field] = append(f.fields[field], msg)
}

func (f *fieldErrors) has(field string) bool { _, ok := f.fields[field]; return ok }

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

// invalid is a one-field validation error.
func invalid(field, msg string) *Error {
	return &Error{Code: EINVALID, Message: msg, Fields: map[string][]string{field: {msg}}}
}

var statusOf = map[string]int{
	EINVALID:      http.StatusUnprocessableEntity,
	EUNAUTHORIZED: http.StatusUnauthorized,
	EFORBIDDEN:    http.StatusForbidden,
	ENOTFOUND:     http.StatusNotFound,
	EMETHOD:       http.StatusMethodNotAllowed,
	ECONFLICT:     http.StatusConflict,
	ETOOLARGE:     http.StatusRequestEntityTooLarge,
	ECSRF:         419,
	ETOOMANY:      http.StatusTooManyRequests,
	EINTERNAL:     http.StatusInternalServerError,
	EUNAVAILABLE:  http.StatusServiceUnavailable,
}

// writeError answers with err as JSON: {"message": …} plus "errors" for validation
// failures. Anything that is not an *Error is logged and answered as a bare 500.
func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	var e *Error
	if !errors.As(err, &e) {
		log.Error("auth: request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		e = &Error{Code: EINTERNAL, Message: "Server Error"}
	}
	status, ok := statusOf[e.Code]
	if !ok {
		status = http.StatusInternalServerError
	}
	for k, v := range e.Header {
		w.Header()[k] = v
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((e.RetryAfter+time.Second-1)/time.Second)))
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

func noContent(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

// maxBody is the largest request body any auth endpoint reads.
const maxBody = 64 << 10

// errTooLarge answers a body over maxBody, naming the limit.
func errTooLarge() *Error {
	return &Error{Code: ETOOLARGE, Message: "The request body may be at most 64 KiB."}
}

// bodyError turns a failure to read a body into the client's error: 413 when it was
// over maxBody, else 422 with msg.
func bodyError(err error, msg string) *Error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return errTooLarge()
	}
	return invalid("body", msg)
}

// decodeInput reads a JSON body, or a urlencoded or multipart form (server-rendered
// forms), into dst. Form fields are matched to JSON field names; booleans in forms
// are read by flexBool.
func decodeInput(r *http.Request, dst any) error {
	ct := r.Header.Get("Content-Type")
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	ct = strings.TrimSpace(strings.ToLower(ct))
	switch ct {
	case "application/x-www-form-urlencoded", "multipart/form-data":
		if r.Form == nil {
			// Without the cap, the file parts of a multipart body would go to disk
			// whatever their size.
			r.Body = http.MaxBytesReader(nil, r.Body, maxBody)
			if ct == "multipart/form-data" {
				if err := r.ParseMultipartForm(maxBody); err != nil {
					return bodyError(err, "The request body could not be read.")
				}
			} else if err := r.ParseForm(); err != nil {
				return bodyError(err, "The request body could not be read.")
			}
		}
		m := map[string]any{}
		for k, v := range r.PostForm {
			if len(v) == 0 {
				continue
			}
			m[k] = v[0]
		}
		b, _ := json.Marshal(m)
		return decodeJSONBytes(b, dst)
	default:
		r.Body = http.MaxBytesReader(nil, r.Body, maxBody)
		dec := json.NewDecoder(r.Body)
		if err := dec.Decode(dst); err != nil {
			if errors.Is(err, io.EOF) {
				return nil // an empty body is an empty object
			}
			return bodyError(err, "The request body must be a JSON object.")
		}
		return nil
	}
}

func decodeJSONBytes(b []byte, dst any) error {
	if err := json.Unmarshal(b, dst); err != nil {
		return invalid("body", "The request body could not be read.")
	}
	return nil
}

// flexBool is a boolean that also accepts the strings and numbers forms and loose
// clients send: "1", "on", "true", 1 (true) and "0", "", "off", "false", 0 (false).
type flexBool bool

func (b *flexBool) UnmarshalJSON(data []byte) error {
	switch strings.Trim(strings.ToLower(string(data)), `"`) {
	case "true", "1", "on", "yes":
		*b = true
	case "false", "0", "off", "no", "", "null":
		*b = false
	default:
		return fmt.Errorf("not a boolean: %s", data)
	}
	return nil
}
