package auth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"lineage/internal/httpx"
)

func errorf(code, format string, args ...any) *httpx.Error {
	return &httpx.Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Messages of the Laravel SPA contract, word for word.
const (
	msgUnauthenticated = "Unauthenticated."
	msgCSRF            = "CSRF token mismatch."
	msgBadCredentials  = "These credentials do not match our records."
	msgBothExpired     = "Both token and refresh token have expired. Your request was aborted."
	msgNotVerified     = "Your email address is not verified."
)

func errUnauthenticated() *httpx.Error {
	return &httpx.Error{Code: httpx.EUNAUTHORIZED, Message: msgUnauthenticated}
}

// invalid is a one-field validation error.
func invalid(field, msg string) *httpx.Error {
	return &httpx.Error{Code: httpx.EINVALID, Message: msg, Fields: map[string][]string{field: {msg}}}
}

// writeError answers with err as JSON: {"message": …} plus "errors" for validation
// failures. Anything that is not an *httpx.Error is logged and answered as a bare 500.
func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	httpx.WriteError(w, r, log, "auth", err)
}

// maxBody is the largest request body any auth endpoint reads.
const maxBody = 64 << 10

// errTooLarge answers a body over maxBody, naming the limit.
func errTooLarge() *httpx.Error {
	return &httpx.Error{Code: httpx.ETOOLARGE, Message: "The request body may be at most 64 KiB."}
}

// bodyError turns a failure to read a body into the client's error: 413 when it was
// over maxBody, else 422 with msg.
func bodyError(err error, msg string) *httpx.Error {
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
