package membership

import (
	"net/http"

	"lineage/internal/httpx"
)

// The room answers in the API's one error contract (httpx.Error): these names keep its
// code short to read.
const (
	EINVALID      = httpx.EINVALID
	EUNAUTHORIZED = httpx.EUNAUTHORIZED
	EFORBIDDEN    = httpx.EFORBIDDEN
	ENOTFOUND     = httpx.ENOTFOUND
	ECONFLICT     = httpx.ECONFLICT
	ETOOLARGE     = httpx.ETOOLARGE
)

// Error is what the service returns for the client's mistakes; handlers write it.
type Error = httpx.Error

type fieldErrors = httpx.FieldErrors

var errNotFound = &Error{Code: ENOTFOUND, Message: "Not Found"}

var invalid = httpx.Invalid

// maxCSV is the largest CSV import.
const maxCSV = 8 << 20

func decodeJSON(w http.ResponseWriter, r *http.Request, dst any) error {
	return httpx.DecodeJSON(w, r, dst)
}
