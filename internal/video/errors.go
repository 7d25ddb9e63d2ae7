package video

import (
	"errors"
	"fmt"
	"net/http"
)

// Errors whose texts are fixed by the specification (seed-spec §8). They are capitalised
// and end with a full stop, unlike other Go errors, because operators and the original
// tooling know them by these exact words. Details follow the text, never replace it.
var (
	// ErrNoAPIPath: an API request without a path, e.g. `replace` without a video URI.
	ErrNoAPIPath = errors.New("You must provide an API path.")
	// ErrInvalidFilePath: no file argument, or a path that is not a regular file.
	ErrInvalidFilePath = errors.New("Please pass in a valid file path.")
	// ErrFileNotFound: the file cannot be found or read.
	ErrFileNotFound = errors.New("Unable to locate file to upload.")
	// ErrInitiate: the video host refused to create the video or the new version.
	ErrInitiate = errors.New("Unable to initiate an upload.")
)

// Errors about the tus conversation. Each is wrapped with the detail of what was seen.
var (
	// ErrBadLocation: the video host's answer has no usable upload link (the tus
	// upload URL, which Vimeo returns as upload.upload_link instead of a Location header).
	ErrBadLocation = errors.New("invalid or missing upload location")
	// ErrBadOffset: a missing or malformed Upload-Offset, or one the client did not expect.
	ErrBadOffset = errors.New("invalid or missing Upload-Offset")
	// ErrBadLength: a missing or malformed Upload-Length, or one that is not the file's size.
	ErrBadLength = errors.New("invalid or missing Upload-Length")
	// ErrLocked: the upload server kept answering 423 Locked: another request holds it.
	ErrLocked = errors.New("the upload is locked by another request (423 Locked)")
	// ErrUploadGone: the upload server no longer knows the upload link (404, 410, 403).
	ErrUploadGone = errors.New("the upload link is no longer valid")
)

// specError puts details after one of the fixed texts while errors.Is still finds it.
func specError(text error, format string, args ...any) error {
	return fmt.Errorf("%w "+format, append([]any{text}, args...)...)
}

// StatusError is an HTTP answer outside 2xx.
type StatusError struct {
	Method  string
	Target  string // an API path, or "upload link" (the link itself is a secret)
	Status  int
	Message string // what the body said, if anything
}

func (e *StatusError) Error() string {
	s := fmt.Sprintf("%s %s: %d %s", e.Method, e.Target, e.Status, http.StatusText(e.Status))
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// transportError is a request that got no HTTP answer: refused, reset, cut, timed out.
type transportError struct{ err error }

func (e *transportError) Error() string { return e.err.Error() }
func (e *transportError) Unwrap() error { return e.err }

// errNoProgress: the server accepted a PATCH but its offset did not move.
var errNoProgress = errors.New("the upload server accepted a chunk but stored none of it")

// retryable reports whether a failed tus request is worth another attempt. The rule is
// tus-js-client's, which the original tooling used: no answer at all, or a status outside
// 4xx, or 409 Conflict (offset mismatch: re-HEAD and go on), or 423 Locked.
func retryable(err error) bool {
	var se *StatusError
	if errors.As(err, &se) {
		return se.Status < 400 || se.Status >= 500 || se.Status == http.StatusConflict || se.Status == http.StatusLocked
	}
	var te *transportError
	return errors.As(err, &te) || errors.Is(err, errNoProgress)
}

// statusOf returns the HTTP status of err, or 0 when there was no answer.
func statusOf(err error) int {
	var se *StatusError
	if errors.As(err, &se) {
		return se.Status
	}
	return 0
}
