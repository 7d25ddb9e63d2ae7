package httpx

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

func TestNoRoute(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /things/{id}", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("thing " + r.PathValue("id"))) })
	mux.HandleFunc("DELETE /things/{id}", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	h := NoRoute(mux,
		func(w http.ResponseWriter, r *http.Request) { http.Error(w, "none here", http.StatusNotFound) },
		func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "not that way", http.StatusMethodNotAllowed)
		})
	for _, tc := range []struct {
		method, path string
		status       int
		body, allow  string
	}{
		{"GET", "/things/7", 200, "thing 7", ""},
		{"HEAD", "/things/7", 200, "", ""},
		{"DELETE", "/things/7", 204, "", ""},
		{"POST", "/things/7", 405, "not that way\n", "DELETE, GET, HEAD"},
		{"GET", "/things", 404, "none here\n", ""},
		{"PUT", "/elsewhere", 404, "none here\n", ""},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		if rec.Code != tc.status || (tc.method != "HEAD" && rec.Body.String() != tc.body) || rec.Header().Get("Allow") != tc.allow {
			t.Errorf("%s %s: %d %q Allow %q, want %d %q Allow %q", tc.method, tc.path, rec.Code, rec.Body.String(), rec.Header().Get("Allow"), tc.status, tc.body, tc.allow)
		}
	}
}

func TestJSON(t *testing.T) {
	rec := httptest.NewRecorder()
	JSON(rec, http.StatusTeapot, map[string]string{"message": "<b>Tea & cake</b>"})
	if rec.Code != http.StatusTeapot || rec.Header().Get("Content-Type") != "application/json" || rec.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("%d %v", rec.Code, rec.Header())
	}
	if got := rec.Body.String(); got != `{"message":"<b>Tea & cake</b>"}`+"\n" {
		t.Errorf("body %q", got)
	}
}

func TestReply(t *testing.T) {
	rec := httptest.NewRecorder()
	if err := Reply(rec, http.StatusCreated, map[string]int{"n": 1}, nil); err != nil || rec.Code != http.StatusCreated || rec.Body.String() != `{"n":1}`+"\n" {
		t.Errorf("success: %v %d %q", err, rec.Code, rec.Body.String())
	}
	rec = httptest.NewRecorder()
	failed := &Error{Code: ENOTFOUND, Message: "Not Found"}
	if err := Reply(rec, http.StatusOK, map[string]int{"n": 1}, failed); err != failed || rec.Body.Len() != 0 || len(rec.Header()) != 0 {
		t.Errorf("failure must write nothing and return the error: %v %q %v", err, rec.Body.String(), rec.Header())
	}
}

func TestPathID(t *testing.T) {
	for _, tc := range []struct {
		value string
		id    int64
	}{{"7", 7}, {"9223372036854775807", 9223372036854775807}, {"0", 0}, {"-3", 0}, {"x", 0}, {"", 0}, {"1e3", 0}, {"9223372036854775808", 0}} {
		r := httptest.NewRequest("GET", "/", nil)
		r.SetPathValue("id", tc.value)
		id, err := PathID(r, "id")
		var e *Error
		if id != tc.id || (tc.id == 0) != (err != nil) || (err != nil && (!errors.As(err, &e) || e.Code != ENOTFOUND)) {
			t.Errorf("%q: %d %v, want %d", tc.value, id, err, tc.id)
		}
	}
}

func TestClientIP(t *testing.T) {
	for _, tc := range []struct {
		remote string
		xff    []string
		want   string
	}{
		{"192.0.2.1:5000", nil, "192.0.2.1"},
		{"192.0.2.1:5000", []string{"198.51.100.7"}, "192.0.2.1"}, // only a loopback peer may name the visitor
		{"127.0.0.1:5000", []string{"198.51.100.7"}, "198.51.100.7"},
		{"127.0.0.1:5000", []string{"203.0.113.5, 198.51.100.7, 127.0.0.1"}, "198.51.100.7"},
		{"[::1]:5000", []string{"junk", "2001:db8::1"}, "2001:db8::1"},
		{"127.0.0.1:5000", []string{"junk"}, "127.0.0.1"},
		{"no-port", nil, "no-port"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.remote
		for _, v := range tc.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := ClientIP(r); got != tc.want {
			t.Errorf("%s %q: %s, want %s", tc.remote, tc.xff, got, tc.want)
		}
	}
}

// FuzzPathID: whatever a visitor puts in the path, PathID answers a positive id that
// is the value, or a 404.
func FuzzPathID(f *testing.F) {
	for _, s := range []string{"7", "0", "-1", "x", "", "+5", "007", "9223372036854775808"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		r := httptest.NewRequest("GET", "/", nil)
		r.SetPathValue("id", v)
		id, err := PathID(r, "id")
		if err != nil {
			var e *Error
			if id != 0 || !errors.As(err, &e) || e.Code != ENOTFOUND {
				t.Fatalf("%q: %d %v", v, id, err)
			}
			return
		}
		if n, perr := strconv.ParseInt(v, 10, 64); id <= 0 || perr != nil || n != id {
			t.Fatalf("%q: %d", v, id)
		}
	})
}

// NoContent answers 204 with no body, never cached; when the work failed it writes
// nothing (no status, no header) and returns the same error for the room to answer.
func TestNoContent(t *testing.T) {
	failed := &Error{Code: ENOTFOUND, Message: "Not Found"}
	for _, tc := range []struct {
		name         string
		err          error
		status       int // 0: nothing written
		cacheControl string
	}{
		{"done", nil, http.StatusNoContent, "no-store"},
		{"failed", failed, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			rec.Code = 0 // WriteHeader sets it; NewRecorder's 200 would hide that nothing was written
			err := NoContent(rec, tc.err)
			if err != tc.err || rec.Code != tc.status || rec.Header().Get("Cache-Control") != tc.cacheControl || rec.Body.Len() != 0 {
				t.Errorf("%v, status %d, headers %v, body %q; want %v, %d, Cache-Control %q, no body", err, rec.Code, rec.Header(), rec.Body.String(), tc.err, tc.status, tc.cacheControl)
			}
			if tc.err != nil && len(rec.Header()) != 0 {
				t.Errorf("a failure must write no header: %v", rec.Header())
			}
		})
	}
}
