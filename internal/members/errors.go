package members

import (
	"net/http"
	"strconv"

	"lineage/internal/httpx"
)

// The room answers in the API's one error contract (httpx, decision 013).

var errNotFound = &httpx.Error{Code: httpx.ENOTFOUND, Message: "Not Found"}

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
