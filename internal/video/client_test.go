package video

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lineage/internal/video/videotest"
)

func newTestClient(t *testing.T, fake *videotest.Server, token string) *Client {
	t.Helper()
	c, err := NewClient(Settings{APIURL: fake.URL, ClientID: videotest.ClientID, ClientSecret: videotest.ClientSecret, AccessToken: token}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestToken(t *testing.T) {
	wantBasic := "Basic " + base64.StdEncoding.EncodeToString([]byte(videotest.ClientID+":"+videotest.ClientSecret))

	// lastForm checks the one API request's wire details and returns its form body.
	lastForm := func(t *testing.T, fake *videotest.Server, path string) url.Values {
		t.Helper()
		reqs := fake.Requests()
		if len(reqs) != 1 {
			t.Fatalf("%d requests", len(reqs))
		}
		r := reqs[0]
		if r.Method != http.MethodPost || r.Path != path {
			t.Errorf("%s %s, want POST %s", r.Method, r.Path, path)
		}
		if got := r.Header.Get("Authorization"); got != wantBasic {
			t.Errorf("Authorization %q, want %q", got, wantBasic)
		}
		if got := r.Header.Get("Content-Type"); got != "application/x-www-form-urlencoded" {
			t.Errorf("Content-Type %q", got)
		}
		if got := r.Header.Get("Accept"); got != Accept {
			t.Errorf("Accept %q", got)
		}
		form, err := url.ParseQuery(string(r.Body))
		if err != nil {
			t.Fatal(err)
		}
		return form
	}

	t.Run("AuthorizationCode", func(t *testing.T) {
		fake := videotest.New(t)
		// A user token in the environment must not replace the app's credentials here.
		tok, err := newTestClient(t, fake, "some-old-token").ExchangeCode(context.Background(), videotest.GoodCode, "https://lineage.example/video/callback")
		if err != nil {
			t.Fatal(err)
		}
		if tok.AccessToken != videotest.AccessToken || tok.TokenType != "bearer" || tok.User == nil || tok.User.URI != "/users/7" {
			t.Errorf("token %+v", tok)
		}
		form := lastForm(t, fake, "/oauth/access_token")
		want := url.Values{"grant_type": {"authorization_code"}, "code": {videotest.GoodCode}, "redirect_uri": {"https://lineage.example/video/callback"}}
		if form.Encode() != want.Encode() {
			t.Errorf("form %v, want %v", form, want)
		}
	})

	t.Run("ClientCredentialsDefaultScope", func(t *testing.T) {
		fake := videotest.New(t)
		tok, err := newTestClient(t, fake, "").ClientCredentials(context.Background(), "")
		if err != nil {
			t.Fatal(err)
		}
		if tok.Scope != "public" {
			t.Errorf("scope %q", tok.Scope)
		}
		form := lastForm(t, fake, "/oauth/authorize/client")
		want := url.Values{"grant_type": {"client_credentials"}, "scope": {"public"}}
		if form.Encode() != want.Encode() {
			t.Errorf("form %v, want %v", form, want)
		}
	})

	t.Run("ClientCredentialsScopes", func(t *testing.T) {
		fake := videotest.New(t)
		if _, err := newTestClient(t, fake, "").ClientCredentials(context.Background(), "public,private  video_files"); err != nil {
			t.Fatal(err)
		}
		if form := lastForm(t, fake, "/oauth/authorize/client"); form.Get("scope") != "public private video_files" {
			t.Errorf("scope %q: scopes are space-separated", form.Get("scope"))
		}
	})

	t.Run("ErrBadCode", func(t *testing.T) {
		fake := videotest.New(t)
		_, err := newTestClient(t, fake, "").ExchangeCode(context.Background(), "stale", "https://x.example/cb")
		if err == nil || !strings.Contains(err.Error(), "400 Bad Request: invalid_grant — The authorization code is invalid or has expired.") {
			t.Fatalf("err = %v", err)
		}
	})

	t.Run("ErrBadSecret", func(t *testing.T) {
		fake := videotest.New(t)
		c, _ := NewClient(Settings{APIURL: fake.URL, ClientID: videotest.ClientID, ClientSecret: "wrong"}, nil)
		_, err := c.ClientCredentials(context.Background(), "")
		if err == nil || !strings.Contains(err.Error(), "401 Unauthorized") {
			t.Fatalf("err = %v", err)
		}
	})

	t.Run("ErrNoCredentials", func(t *testing.T) {
		fake := videotest.New(t)
		c, _ := NewClient(Settings{APIURL: fake.URL}, nil)
		_, err := c.ClientCredentials(context.Background(), "")
		if err == nil || !strings.Contains(err.Error(), "LINEAGE_VIDEO_CLIENT_ID and LINEAGE_VIDEO_CLIENT_SECRET must be set") {
			t.Fatalf("err = %v", err)
		}
		if len(fake.Requests()) != 0 {
			t.Error("a request went out without credentials")
		}
	})
}

// TestSpecErrors checks every error text of seed-spec §8 for video uploads, word for word.
func TestSpecErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "talk.mp4")
	os.WriteFile(file, []byte("not really a video"), 0o644)

	tests := []struct {
		name string
		run  func(h *harness) error
		want string // the exact text the message starts with
		is   error
	}{
		{"EmptyAPIPath", func(h *harness) error {
			return h.up.Client.do(context.Background(), apiRequest{method: http.MethodGet, path: ""}, nil)
		}, "You must provide an API path.", ErrNoAPIPath},
		{"ReplaceWithoutVideoURI", func(h *harness) error {
			_, err := h.up.Replace(context.Background(), "", file)
			return err
		}, "You must provide an API path.", ErrNoAPIPath},
		{"CreateVersionWithoutVideoURI", func(h *harness) error {
			_, err := h.up.Client.CreateVersion(context.Background(), " ", "x.mp4", 1)
			return err
		}, "You must provide an API path.", ErrNoAPIPath},
		{"NoFilePath", func(h *harness) error {
			_, err := h.up.Upload(context.Background(), "", "", "")
			return err
		}, "Please pass in a valid file path.", ErrInvalidFilePath},
		{"DirectoryAsFile", func(h *harness) error {
			_, err := h.up.Upload(context.Background(), dir, "", "")
			return err
		}, "Please pass in a valid file path.", ErrInvalidFilePath},
		{"MissingFile", func(h *harness) error {
			_, err := h.up.Upload(context.Background(), filepath.Join(dir, "nope.mp4"), "", "")
			return err
		}, "Unable to locate file to upload.", ErrFileNotFound},
		{"ReplaceMissingFile", func(h *harness) error {
			_, err := h.up.Replace(context.Background(), "/videos/1", filepath.Join(dir, "nope.mp4"))
			return err
		}, "Unable to locate file to upload.", ErrFileNotFound},
		{"CreateRefused", func(h *harness) error {
			h.up.Client.settings.AccessToken = "revoked"
			_, err := h.up.Upload(context.Background(), file, "", "")
			return err
		}, "Unable to initiate an upload.", ErrInitiate},
		{"CreateServerError", func(h *harness) error {
			h.fake.API = func(w http.ResponseWriter, r *http.Request) bool {
				http.Error(w, `{"error":"Something strange occurred."}`, http.StatusServiceUnavailable)
				return true
			}
			_, err := h.up.Upload(context.Background(), file, "", "")
			return err
		}, "Unable to initiate an upload.", ErrInitiate},
		{"CreateNotJSON", func(h *harness) error {
			h.fake.API = func(w http.ResponseWriter, r *http.Request) bool {
				w.Write([]byte("<html>maintenance</html>"))
				return true
			}
			_, err := h.up.Upload(context.Background(), file, "", "")
			return err
		}, "Unable to initiate an upload.", ErrInitiate},
		{"VersionRefused", func(h *harness) error {
			_, err := h.up.Replace(context.Background(), "/videos/424242", file)
			return err
		}, "Unable to initiate an upload.", ErrInitiate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, 10)
			err := tt.run(h)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) || !errors.Is(err, tt.is) {
				t.Fatalf("err = %v; want the text %q", err, tt.want)
			}
			if len(h.fake.Videos()) != 0 {
				t.Error("a video was created")
			}
		})
	}
}

// TestUploadLocation covers the upload link, which stands in for tus's Location header.
func TestUploadLocation(t *testing.T) {
	answer := func(link string, extra string) func(w http.ResponseWriter, r *http.Request) bool {
		return func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path != "/me/videos" {
				return false
			}
			w.Write([]byte(`{"uri":"/videos/5","name":"x","upload":{"upload_link":` + link + extra + `}}`))
			return true
		}
	}
	tests := []struct {
		name, link, extra, want string
	}{
		{"Missing", `""`, "", "has no upload.upload_link"},
		{"Null", `null`, "", "has no upload.upload_link"},
		{"NotAURL", `"http://[::1"`, "", "not a URL"},
		{"NotHTTP", `"ftp://files.example/up/1"`, "", "not an http(s) URL"},
		{"NoHost", `"http:///files/1"`, "", "not an http(s) URL"},
		{"OtherApproach", `"https://x.example/up"`, `,"approach":"post"`, `"post" approach`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, 10)
			h.fake.API = answer(tt.link, tt.extra)
			_, err := h.up.Upload(context.Background(), h.file, "", "")
			if !errors.Is(err, ErrBadLocation) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "invalid or missing upload location") {
				t.Errorf("message %q", err)
			}
		})
	}

	t.Run("RelativeIsResolved", func(t *testing.T) {
		// The host answers with a link without scheme and host; it is resolved against
		// the API URL, as tus clients resolve a relative Location.
		h := newHarness(t, 3*testChunk)
		h.fake.API = func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path != "/me/videos" || r.Header.Get("X-Inner") != "" {
				return false
			}
			inner, _ := http.NewRequest(r.Method, h.fake.URL+r.URL.RequestURI(), r.Body)
			inner.Header = r.Header.Clone()
			inner.Header.Set("X-Inner", "1")
			resp, err := http.DefaultClient.Do(inner)
			if err != nil {
				t.Error(err)
				return false
			}
			defer resp.Body.Close()
			var v map[string]any
			json.NewDecoder(resp.Body).Decode(&v)
			up := v["upload"].(map[string]any)
			up["upload_link"] = strings.TrimPrefix(up["upload_link"].(string), h.fake.URL)
			json.NewEncoder(w).Encode(v)
			return true
		}
		res, err := h.up.Upload(context.Background(), h.file, "", "")
		if err != nil {
			t.Fatal(err)
		}
		h.checkStored(res.URI, h.data)
	})

	t.Run("NoVideoURI", func(t *testing.T) {
		h := newHarness(t, 10)
		h.fake.API = func(w http.ResponseWriter, r *http.Request) bool {
			w.Write([]byte(`{"upload":{"approach":"tus","upload_link":"https://x.example/up"}}`))
			return true
		}
		_, err := h.up.Upload(context.Background(), h.file, "", "")
		if !errors.Is(err, ErrInitiate) || !strings.Contains(err.Error(), "no usable video uri") {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestNewClient(t *testing.T) {
	for _, bad := range []string{"api.vimeo.com", "ftp://api.vimeo.com", "http://", "::"} {
		if _, err := NewClient(Settings{APIURL: bad}, nil); err == nil || !strings.Contains(err.Error(), "LINEAGE_VIDEO_API_URL") {
			t.Errorf("%q: err = %v", bad, err)
		}
	}
	s := SettingsFromEnv(func(k string) string {
		return map[string]string{"LINEAGE_VIDEO_CLIENT_ID": " id ", "LINEAGE_VIDEO_ACCESS_TOKEN": "tok"}[k]
	})
	if s.APIURL != "https://api.vimeo.com" || s.ClientID != "id" || s.AccessToken != "tok" {
		t.Errorf("settings %+v", s)
	}
	// A base URL with a path keeps it.
	fake := videotest.New(t)
	c, _ := NewClient(Settings{APIURL: fake.URL + "/vimeo/", AccessToken: videotest.AccessToken}, nil)
	c.do(context.Background(), apiRequest{method: http.MethodGet, path: "/me?fields=uri"}, nil)
	if r := fake.Requests()[0]; r.Path != "/vimeo/me?fields=uri" {
		t.Errorf("path %q", r.Path)
	}
	if err := c.do(context.Background(), apiRequest{method: http.MethodGet, path: "https://evil.example/me"}, nil); err == nil {
		t.Error("an absolute URL was accepted as an API path")
	}
}

func TestNormalizeVideoURI(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/videos/123456", "/videos/123456"},
		{"videos/123456/", "/videos/123456"},
		{"123456", "/videos/123456"},
		{"https://vimeo.com/123456", "/videos/123456"},
		{"https://vimeo.com/123456/abcdef1234", "/videos/123456"},
		{"https://player.vimeo.com/video/123456?h=abc", "/videos/123456"},
		{"https://api.vimeo.com/videos/123456", "/videos/123456"},
		{"/videos/12a", ""},
		{"/users/5", ""},
		{"https://example.com/123", ""},
	}
	for _, tt := range tests {
		got, err := NormalizeVideoURI(tt.in)
		if (tt.want == "") != (err != nil) || got != tt.want {
			t.Errorf("NormalizeVideoURI(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if _, err := NormalizeVideoURI("  "); err != ErrNoAPIPath {
		t.Errorf("blank: %v", err)
	}
	if link, _ := VideoPageLink("/videos/42"); link != "https://vimeo.com/42" {
		t.Errorf("link %q", link)
	}
}
