package members

import (
	"net/http"
	"strconv"

	"lineage/internal/httpx"
)

// The room answers in the API's one error contract (httpx.Error).
const (
	EINVALID      = httpx.EINVALID
	EUNAUTHORIZED = httpx.EUNAUTHORIZED
	ENOTFOUND     = httpx.ENOTFOUND
	ETOOLARGE     = httpx.ETOOLARGE
)

// Error is what handlers return to the client.
type Error = httpx.Error

var errNotFound = &Error{Code: ENOTFOUND, Message: "Not Found"}

var invalid = httpx.Invalid

func decodeJSON(w http.ResponseWriter, r *http.Request, dst any) error {
	return httpx.DecodeJSON(w, r, dst)
}

func pathID(r *http.Request, name string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, errNotFound
	}
	return id, nil
}
