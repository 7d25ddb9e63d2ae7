package members

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"

	"lineage/internal/httpx"
)

// Error codes, mapped to statuses in writeError only.
const (
	EINVALID      = "invalid"      // 422
	EUNAUTHORIZED = "unauthorized" // 401
	ENOTFOUND     = "not_found"    // 404
	EMETHOD       = "method"       // 405
	ETOOLARGE     = "too_large"    // 413
)

// Error is what handlers return to the client.
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

var statusOf = map[string]int{
	EINVALID:      http.StatusUnprocessableEntity,
	EUNAUTHORIZED: http.StatusUnauthorized,
	ENOTFOUND:     http.StatusNotFound,
	EMETHOD:       http.StatusMethodNotAllowed,
	ETOOLARGE:     http.StatusRequestEntityTooLarge,
}

func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	var e *Error
	if !errors.As(err, &e) {
		log.Error("members: request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		e = &Error{Code: "internal", Message: "Server Error"}
	}
	status, ok := statusOf[e.Code]
	if !ok {
		status = http.StatusInternalServerError
	}
	body := map[string]any{"message": e.Message}
	if e.Code == EINVALID {
		body["errors"] = e.Fields
	}
	httpx.JSON(w, status, body)
}

const maxBody = 64 << 10

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

func pathID(r *http.Request, name string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, errNotFound
	}
	return id, nil
}
