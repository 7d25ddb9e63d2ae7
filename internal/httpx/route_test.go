package httpx

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestRoom: a room's routes answer their errors through WriteError, its session
// middleware runs around the routes and the fallback, and the fallback answers in JSON
// with the Allow of this room's routes only.
func TestRoom(t *testing.T) {
	session := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Session", "yes")
			next.ServeHTTP(w, r)
		})
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	things := Room{Name: "things", Log: quiet, Session: session, Fallback: []string{"/things", "/things/"}, Routes: []Route{
		{Pattern: "GET /things/{id}", Handler: func(w http.ResponseWriter, r *http.Request) error {
			if r.PathValue("id") == "gone" {
				return &Error{Code: ENOTFOUND, Message: "No such thing."}
			}
			if r.PathValue("id") == "broken" {
				return errors.New("disk on fire")
			}
			JSON(w, http.StatusOK, map[string]string{"id": r.PathValue("id")})
			return nil
		}},
		{Pattern: "DELETE /things/{id}", Handler: Plain(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })},
	}}
	// Another room's route under the same prefix, without a session.
	other := Room{Name: "other", Routes: []Route{{Pattern: "POST /things/special", Handler: Plain(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusAccepted)
	})}}}
	h := Serve(things, other)
	for _, tc := range []struct {
		method, path     string
		status           int
		body, allow, ses string
	}{
		{"GET", "/things/7", 200, `{"id":"7"}` + "\n", "", "yes"},
		{"GET", "/things/gone", 404, `{"message":"No such thing."}` + "\n", "", "yes"},
		{"GET", "/things/broken", 500, `{"message":"Server Error"}` + "\n", "", "yes"},
		{"DELETE", "/things/7", 204, "", "", "yes"},
		{"PUT", "/things/7", 405, `{"message":"The PUT method is not supported for this URL."}` + "\n", "DELETE, GET, HEAD", "yes"},
		{"GET", "/things/7/parts", 404, `{"message":"Not Found"}` + "\n", "", "yes"},
		{"GET", "/things", 404, `{"message":"Not Found"}` + "\n", "", "yes"},
		{"POST", "/things/special", 202, "", "", ""},
		// The other room's route is not this room's: its other methods are this room's
		// GET route then, not a 405 naming POST.
		{"PUT", "/things/special", 405, `{"message":"The PUT method is not supported for this URL."}` + "\n", "DELETE, GET, HEAD", "yes"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		if rec.Code != tc.status || rec.Body.String() != tc.body || rec.Header().Get("Allow") != tc.allow || rec.Header().Get("X-Session") != tc.ses {
			t.Errorf("%s %s: %d %q Allow %q session %q, want %d %q Allow %q session %q", tc.method, tc.path,
				rec.Code, rec.Body.String(), rec.Header().Get("Allow"), rec.Header().Get("X-Session"), tc.status, tc.body, tc.allow, tc.ses)
		}
	}
}

// TestGuard: the check runs before the handler and its error is the answer; a
// caller it lets through reaches the handler with who they are.
func TestGuard(t *testing.T) {
	type viewer struct{ id int64 }
	who := func(r *http.Request) viewer { id, _ := PathID(r, "as"); return viewer{id} }
	signedIn := func(v viewer) error {
		if v.id == 0 {
			return &Error{Code: EUNAUTHORIZED, Message: "Unauthenticated."}
		}
		return nil
	}
	hello := func(w http.ResponseWriter, r *http.Request, v viewer) error {
		JSON(w, http.StatusOK, map[string]int64{"id": v.id})
		return nil
	}
	h := Serve(Room{Routes: []Route{
		{Pattern: "GET /guarded/{as}", Handler: Guard(who, signedIn, hello)},
		{Pattern: "GET /open/{as}", Handler: Guard(who, nil, hello)},
	}})
	for _, tc := range []struct {
		path   string
		status int
		body   string
	}{
		{"/guarded/7", 200, `{"id":7}` + "\n"},
		{"/guarded/anonymous", 401, `{"message":"Unauthenticated."}` + "\n"},
		{"/open/anonymous", 200, `{"id":0}` + "\n"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", tc.path, nil))
		if rec.Code != tc.status || rec.Body.String() != tc.body {
			t.Errorf("%s: %d %q, want %d %q", tc.path, rec.Code, rec.Body.String(), tc.status, tc.body)
		}
	}
}
