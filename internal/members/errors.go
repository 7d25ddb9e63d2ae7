package members

import (
	"net/http"

	"lineage/internal/httpx"
)

// The room answers in the API's one error contract (httpx, decision 013).

var errNotFound = &httpx.Error{Code: httpx.ENOTFOUND, Message: "Not Found"}

var invalid = httpx.Invalid

func decodeJSON(w http.ResponseWriter, r *http.Request, dst any) error {
	return httpx.DecodeJSON(w, r, dst)
}
