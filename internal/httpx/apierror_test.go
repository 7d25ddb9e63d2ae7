package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestWriteError(t *testing.T) {
	var fe FieldErrors
	fe.Add("name", "The name field is required.")
	fe.Add("email", "The email must be a valid email address.")
	fe.Add("email", "The email is taken.")
	tests := []struct {
		name   string
		err    error
		status int
		body   string
	}{
		{"Invalid", Invalid("plan", "Choose a plan."), 422, `{"errors":{"plan":["Choose a plan."]},"message":"Choose a plan."}`},
		{"InvalidNoFields", &Error{Code: EINVALID, Message: "Bad."}, 422, `{"errors":{},"message":"Bad."}`},
		{"FieldErrors", fe.Err(), 422, `{"errors":{"email":["The email must be a valid email address.","The email is taken."],"name":["The name field is required."]},"message":"The name field is required. (and 2 more errors)"}`},
		{"Wrapped", errors.Join(errors.New("context"), &Error{Code: ECONFLICT, Message: "Already a member."}), 409, `{"message":"Already a member."}`},
		{"NotFound", &Error{Code: ENOTFOUND, Message: "Not Found"}, 404, `{"message":"Not Found"}`},
		{"Internal", errors.New("disk on fire"), 500, `{"message":"Server Error"}`},
		{"UnknownCode", &Error{Code: "odd", Message: "x"}, 500, `{"message":"x"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logged strings.Builder
			w := httptest.NewRecorder()
			WriteError(w, httptest.NewRequest("POST", "/api/x", nil), slog.New(slog.NewTextHandler(&logged, nil)), "room", tt.err)
			if w.Code != tt.status {
				t.Fatalf("status %d, want %d", w.Code, tt.status)
			}
			var got, want any
			json.Unmarshal(w.Body.Bytes(), &got)
			json.Unmarshal([]byte(tt.body), &want)
			g, _ := json.Marshal(got)
			wnt, _ := json.Marshal(want)
			if string(g) != string(wnt) {
				t.Fatalf("body %s, want %s", g, wnt)
			}
			if tt.status == 500 && tt.name == "Internal" {
				if strings.Contains(w.Body.String(), "fire") || !strings.Contains(logged.String(), "room: request failed") || !strings.Contains(logged.String(), "fire") {
					t.Fatalf("cause must go to the log only: body %q, log %q", w.Body.String(), logged.String())
				}
			}
		})
	}
	w := httptest.NewRecorder()
	WriteError(w, httptest.NewRequest("POST", "/login", nil), slog.New(slog.NewTextHandler(io.Discard, nil)), "room",
		&Error{Code: ETOOMANY, Message: "Too Many Attempts.", RetryAfter: 1500 * time.Millisecond, Header: http.Header{"Www-Authenticate": {"Bearer"}}})
	if w.Code != 429 || w.Header().Get("Retry-After") != "2" || w.Header().Get("WWW-Authenticate") != "Bearer" {
		t.Fatalf("429: status %d, Retry-After %q, WWW-Authenticate %q", w.Code, w.Header().Get("Retry-After"), w.Header().Get("WWW-Authenticate"))
	}
	if !fe.Has("email") || fe.Has("plan") {
		t.Fatal("Has must report the fields added")
	}
	var none FieldErrors
	if none.Err() != nil {
		t.Fatal("no fields added must be no error")
	}
}

func TestDecodeJSON(t *testing.T) {
	tests := []struct {
		name string
		body io.Reader
		code string
	}{
		{"OK", strings.NewReader(`{"a":1}`), ""},
		{"NotJSON", strings.NewReader(`a=1`), EINVALID},
		{"Empty", strings.NewReader(``), EINVALID},
		{"TooLarge", strings.NewReader(`{"a":"` + strings.Repeat("x", MaxJSONBody) + `"}`), ETOOLARGE},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var dst map[string]any
			err := DecodeJSON(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/", tt.body), &dst)
			var e *Error
			switch {
			case tt.code == "" && err != nil:
				t.Fatalf("unexpected %v", err)
			case tt.code != "" && (!errors.As(err, &e) || e.Code != tt.code):
				t.Fatalf("got %v, want code %s", err, tt.code)
			case tt.code == ETOOLARGE && !strings.Contains(e.Message, "64 KiB"):
				t.Fatalf("413 must name the limit: %q", e.Message)
			}
		})
	}
}

// Multipart reads a multipart body part by part, within its limit; another kind of
// body is a 400 with the route's message.
func TestMultipart(t *testing.T) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("title", strings.Repeat("x", 100))
	mw.Close()
	multi := mw.FormDataContentType()
	tests := []struct {
		name, contentType string
		limit             int64
		code              string // of the call, or of reading the part
	}{
		{"OK", multi, 1 << 20, ""},
		{"NotMultipart", "application/json", 1 << 20, EBADREQUEST},
		{"TooLarge", multi, 50, "too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body.Bytes()))
			r.Header.Set("Content-Type", tt.contentType)
			mr, err := Multipart(httptest.NewRecorder(), r, tt.limit, "Send the file as multipart/form-data.")
			var e *Error
			if tt.code == EBADREQUEST {
				if !errors.As(err, &e) || e.Code != EBADREQUEST || e.Message != "Send the file as multipart/form-data." {
					t.Fatalf("got %v, want a 400 with the route's message", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			part, err := mr.NextPart()
			if err == nil {
				_, err = io.ReadAll(part)
			}
			var mbe *http.MaxBytesError
			if tooLarge := errors.As(err, &mbe); tooLarge != (tt.code == "too large") || (!tooLarge && err != nil) {
				t.Fatalf("reading the part: %v", err)
			}
		})
	}
}

// Parts ranges over every part in order and ends after the last; a part that cannot
// be read ends the range with its error, once; a loop may stop early.
func TestParts(t *testing.T) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, name := range []string{"title", "file", "note"} {
		mw.WriteField(name, "value of "+name)
	}
	mw.Close()
	read := func(b []byte, stopAfter int) (names []string, errs []error) {
		for part, err := range Parts(multipart.NewReader(bytes.NewReader(b), mw.Boundary())) {
			if err != nil {
				errs = append(errs, err)
				continue
			}
			v, _ := io.ReadAll(part)
			names = append(names, part.FormName()+"="+string(v))
			if len(names) == stopAfter {
				break
			}
		}
		return names, errs
	}
	names, errs := read(body.Bytes(), 0)
	if strings.Join(names, ",") != "title=value of title,file=value of file,note=value of note" || len(errs) != 0 {
		t.Fatalf("whole body: %q, %v", names, errs)
	}
	broken := bytes.Replace(body.Bytes(), []byte(`Content-Disposition: form-data; name="file"`), []byte("no header here"), 1)
	names, errs = read(broken, 0)
	if strings.Join(names, ",") != "title=value of title" || len(errs) != 1 {
		t.Fatalf("a second part with a broken header: %q, %v; want the first part and one error", names, errs)
	}
	if names, errs = read(body.Bytes(), 1); len(names) != 1 || len(errs) != 0 {
		t.Fatalf("stopped after the first part: %q, %v", names, errs)
	}
}

// Whole reads a query parameter as a whole number within its bounds; "" (the
// parameter absent, or given empty) is the default without an error; anything else
// outside the bounds is the default and the field's one message.
func TestWhole(t *testing.T) {
	const msg, from0 = "The limit must be a whole number from 1 to 100.", "The limit must be a whole number from 0 to 100."
	for _, tc := range []struct {
		name, s string
		lo      int // from lo to 100, default 20
		want    int
		err     string // the limit's message, or "" for none
	}{
		{"in range", "7", 1, 7, ""},
		{"lowest", "1", 1, 1, ""},
		{"highest", "100", 1, 100, ""},
		{"zero when allowed", "0", 0, 0, ""},
		{"leading zero and sign", "+007", 1, 7, ""},
		{"empty is the default", "", 1, 20, ""},
		{"below", "0", 1, 20, msg},
		{"negative", "-5", 1, 20, msg},
		{"above", "101", 1, 20, msg},
		{"beyond int", "99999999999999999999", 1, 20, msg},
		{"not a number", "ten", 1, 20, msg},
		{"not a number, zero allowed", "ten", 0, 20, from0},
		{"a fraction", "7.5", 1, 20, msg},
		{"spaces", " 7", 1, 20, msg},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var fe FieldErrors
			got := fe.Whole("limit", tc.s, tc.lo, 100, 20)
			err := fe.Err()
			var e *Error
			switch {
			case got != tc.want:
				t.Errorf("%q: %d, want %d", tc.s, got, tc.want)
			case tc.err == "" && err != nil:
				t.Errorf("%q: %v, want no error", tc.s, err)
			case tc.err != "" && (!errors.As(err, &e) || e.Code != EINVALID || e.Message != tc.err || len(e.Fields) != 1 || len(e.Fields["limit"]) != 1 || e.Fields["limit"][0] != tc.err):
				t.Errorf("%q: %#v, want a 422 with the limit's one message %q", tc.s, err, tc.err)
			}
		})
	}
	// The parameter absent and given empty are both "" to Whole; each field's bounds
	// are its own message, in the order met.
	v := httptest.NewRequest("GET", "/?offset=&limit=0&year=x", nil).URL.Query()
	var fe FieldErrors
	offset := fe.Whole("offset", v.Get("offset"), 0, 1_000_000, 3)
	page := fe.Whole("page", v.Get("page"), 1, 9, 4)
	limit := fe.Whole("limit", v.Get("limit"), 1, 100, 20)
	year := fe.Whole("year", v.Get("year"), 1, 2100, 1900)
	var e *Error
	if offset != 3 || page != 4 || limit != 20 || year != 1900 || !errors.As(fe.Err(), &e) ||
		e.Message != "The limit must be a whole number from 1 to 100. (and 1 more error)" ||
		strings.Join(e.Fields["year"], "|") != "The year must be a whole number from 1 to 2100." || fe.Has("offset") || fe.Has("page") {
		t.Errorf("offset %d, page %d, limit %d, year %d; %#v", offset, page, limit, year, fe.Err())
	}
}
