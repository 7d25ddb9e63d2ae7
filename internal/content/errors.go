package content

import (
	"errors"
	"fmt"
	"net/http"
)

// Error is a failure the content API reports to its caller. Kind decides the HTTP
// status and the JSON body (see writePrismicError); the Prismic client maps statuses to
// its own error classes, so each kind mirrors what hosted Prismic answers.
type Error struct {
	Kind    ErrorKind
	Message string
	// Line, Column and QueryID locate a parsing error: QueryID is the 1-based index of the
	// q parameter that failed.
	Line, Column, QueryID int
	// Location names the parameter a parsing error is in ("query", "orderings", …).
	Location string
}

// ErrorKind classifies content API errors.
type ErrorKind int

const (
	// KindInvalid is a malformed request parameter (400, api_validation_error).
	KindInvalid ErrorKind = iota + 1
	// KindParsing is a malformed q, orderings, graphQuery or routes value (400, parsing-error).
	KindParsing
	// KindRefNotFound is a ref that never existed (404, api_notfound_error).
	KindRefNotFound
	// KindRefExpired is an old master ref (410).
	KindRefExpired
	// KindPreviewExpired is a preview token past its expiry (404, api_security_error).
	KindPreviewExpired
	// KindUnauthorized is a missing or wrong access token in private mode (401).
	KindUnauthorized
	// KindTooLong is a query string over the size limit (414).
	KindTooLong
)

func (e *Error) Error() string { return e.Message }

func (e *Error) status() int {
	switch e.Kind {
	case KindInvalid, KindParsing:
		return http.StatusBadRequest
	case KindRefNotFound, KindPreviewExpired:
		return http.StatusNotFound
	case KindRefExpired:
		return http.StatusGone
	case KindUnauthorized:
		return http.StatusUnauthorized
	case KindTooLong:
		return http.StatusRequestURITooLong
	}
	return http.StatusInternalServerError
}

func (e *Error) errType() string {
	switch e.Kind {
	case KindInvalid, KindTooLong:
		return "api_validation_error"
	case KindParsing:
		return "parsing-error"
	case KindRefNotFound:
		return "api_notfound_error"
	case KindRefExpired:
		return "api_expired_ref_error"
	case KindPreviewExpired, KindUnauthorized:
		return "api_security_error"
	}
	return "api_error"
}

func invalidf(format string, args ...any) *Error {
	return &Error{Kind: KindInvalid, Message: fmt.Sprintf(format, args...)}
}

func refNotFound(master string) *Error {
	return &Error{Kind: KindRefNotFound, Message: "Ref not found. Ensure you have the correct ref and try again. Master ref is: " + master}
}

func refExpired(master string) *Error {
	return &Error{Kind: KindRefExpired, Message: "The provided ref is no longer accessible, it has expired. Master ref is: " + master}
}

var errPreviewExpired = &Error{Kind: KindPreviewExpired, Message: "This preview token has expired"}

// AsError returns the *Error in err's chain, if any.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
