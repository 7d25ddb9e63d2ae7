package auth

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"lineage/internal/httpx"
	"lineage/internal/store/storetest"
	"lineage/internal/textfield"
)

// fuzzInput is a body with every kind of field the auth endpoints read.
type fuzzInput struct {
	Name     string   `json:"name"`
	Email    string   `json:"email"`
	Password string   `json:"password"`
	Remember flexBool `json:"remember"`
	Token    string   `json:"token"`
}

// countingReader counts what a decoder read of a body.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// FuzzDecodeInput feeds any body under any content type (JSON, urlencoded and
// multipart forms with any boundary) to the one body decoder of the auth endpoints: it
// never panics, reads at most maxBody bytes (plus a read buffer), and refuses what it
// cannot read with a 413 or 422 *httpx.Error.
func FuzzDecodeInput(f *testing.F) {
	var mp bytes.Buffer
	mw := multipart.NewWriter(&mp)
	mw.WriteField("name", "Ada")
	mw.WriteField("remember", "on")
	fw, _ := mw.CreateFormFile("file", "a.txt")
	fw.Write([]byte("file part"))
	mw.Close()
	f.Add("application/json", []byte(`{"name":"Ada","email":"ada@example.org","remember":true}`))
	f.Add("application/json", []byte(`{"remember":"maybe"}`))
	f.Add("application/json", []byte(`[1,2]`))
	f.Add("application/x-www-form-urlencoded", []byte("name=X%0D%0ABcc%3A+evil%40evil.com&remember=1"))
	f.Add("application/x-www-form-urlencoded", []byte("name=%zz"))
	f.Add(mw.FormDataContentType(), mp.Bytes())
	f.Add("multipart/form-data; boundary=b", []byte("--b\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nA\r\n--b--"))
	f.Add("multipart/form-data", []byte("--\r\n"))
	f.Fuzz(func(t *testing.T, contentType string, body []byte) {
		cr := &countingReader{r: bytes.NewReader(body)}
		req := httptest.NewRequest("POST", "/api/register", cr)
		req.Header.Set("Content-Type", contentType)
		var in fuzzInput
		err := decodeInput(req, &in)
		if req.MultipartForm != nil {
			req.MultipartForm.RemoveAll()
		}
		if cr.n > maxBody+64<<10 {
			t.Fatalf("read %d bytes of the body, limit %d", cr.n, maxBody)
		}
		if err == nil {
			return
		}
		var e *httpx.Error
		if !errors.As(err, &e) {
			t.Fatalf("decodeInput: %v is not an *httpx.Error", err)
		}
		if s := httpx.Status(e.Code); s != http.StatusUnprocessableEntity && s != http.StatusRequestEntityTooLarge {
			t.Fatalf("decodeInput: %v answers %d", err, s)
		}
	})
}

// TestDecodeInputTooLarge: a body over the limit is a 413 that names it, for JSON and
// for both kinds of form, and a multipart file part is not spooled to disk.
func TestDecodeInputTooLarge(t *testing.T) {
	big := strings.Repeat("a", maxBody+1)
	var mp bytes.Buffer
	mw := multipart.NewWriter(&mp)
	fw, _ := mw.CreateFormFile("file", "big.bin")
	fw.Write([]byte(strings.Repeat("x", 4<<20)))
	mw.Close()
	for _, tt := range []struct{ name, ct, body string }{
		{"JSON", "application/json", `{"name":"` + big + `"}`},
		{"Form", "application/x-www-form-urlencoded", "name=" + big},
		{"Multipart", mw.FormDataContentType(), mp.String()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "/api/register", strings.NewReader(tt.body))
			req.Header.Set("Content-Type", tt.ct)
			var in fuzzInput
			err := decodeInput(req, &in)
			var e *httpx.Error
			if !errors.As(err, &e) || httpx.Status(e.Code) != http.StatusRequestEntityTooLarge || e.Message != "The request body may be at most 64 KiB." {
				t.Fatalf("decodeInput = %v, want the 413 naming 64 KiB", err)
			}
			if req.MultipartForm != nil && len(req.MultipartForm.File) > 0 {
				t.Fatalf("multipart files kept: %v", req.MultipartForm.File)
			}
		})
	}
}

// FuzzMiddlewareCredentials sends any session cookie, CSRF header, form token and
// bearer token through the middleware to a state-changing endpoint: no panic, no 5xx.
func FuzzMiddlewareCredentials(f *testing.F) {
	f.Add("", "", "", "")
	f.Add("abcdefghijklmnopqrstuvwxyz0123456789", "token", "", "Bearer abc")
	f.Add("x", "%zz", "_token=%zz", "bearer ")
	f.Add(strings.Repeat("A", 43), "", "_token="+strings.Repeat("b", 40), "Bearer "+strings.Repeat("c", 300))
	db := storetest.SQLite(f)
	s := New(db, Options{PublicURL: "http://lineage.test", Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Password: TestPasswordParams})
	h := httpx.Serve(httpx.Room{Session: s.Middleware, Routes: []httpx.Route{{Pattern: "POST /logout", Handler: s.Logout}}})
	f.Fuzz(func(t *testing.T, cookie, xsrf, form, authz string) {
		req := httptest.NewRequest("POST", "/logout", strings.NewReader(form))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		// Header values as a client could send them: no CR, LF or NUL.
		clean := strings.NewReplacer("\r", "", "\n", "", "\x00", "").Replace
		if c := clean(cookie); c != "" {
			req.Header.Set("Cookie", SessionCookie+"="+c)
		}
		if x := clean(xsrf); x != "" {
			req.Header.Set("X-XSRF-TOKEN", x)
		}
		if a := clean(authz); a != "" {
			req.Header.Set("Authorization", a)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	})
}

// TestOIDCDisplayName: a provider's name claim is used only when it is a valid
// one-line name; otherwise the next claim, or none.
func TestOIDCDisplayName(t *testing.T) {
	tests := []struct {
		name string
		c    oidcClaims
		want string
	}{
		{"OK", oidcClaims{Name: " Ada Lovelace "}, "Ada Lovelace"},
		{"OKGivenFamily", oidcClaims{GivenName: "Ada", FamilyName: "King"}, "Ada King"},
		{"OKUsername", oidcClaims{PreferredUsername: "ada"}, "ada"},
		{"ErrNameFallsBack", oidcClaims{Name: "X\r\nBcc: evil@evil.com", GivenName: "Ada", FamilyName: "King"}, "Ada King"},
		{"ErrAllInvalid", oidcClaims{Name: "a\nb", GivenName: "c\x00", PreferredUsername: "\u202e"}, ""},
		{"ErrTooLong", oidcClaims{Name: strings.Repeat("a", MaxNameLen+1), PreferredUsername: "ada"}, "ada"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.c.displayName(); got != tt.want {
				t.Fatalf("displayName() = %q, want %q", got, tt.want)
			}
			if !textfield.Valid(tt.c.displayName()) {
				t.Fatal("not a valid name")
			}
		})
	}
}

// TestGreeting: the greeting leaves out a name that is not one valid line.
func TestGreeting(t *testing.T) {
	for name, want := range map[string]string{
		"Ada":                     "Hello Ada,",
		"":                        "Hello,",
		"X\r\nBcc: evil@evil.com": "Hello,",
		"X\u2028Y":                "Hello,",
	} {
		if got := greeting(name); got != want {
			t.Errorf("greeting(%q) = %q, want %q", name, got, want)
		}
	}
}
