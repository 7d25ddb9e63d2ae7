package video

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Wire constants of the Vimeo API 3.4 (protocols.md §3.2) and seed-spec §9.
const (
	DefaultAPIURL = "https://api.vimeo.com"
	// Accept goes on every request, the tus ones included, and selects API version 3.4.
	Accept = "application/vnd.vimeo.*+json;version=3.4"
	// DefaultScope is the scope of a client-credentials token when none is asked for.
	DefaultScope = "public"
	// TusVersion is the tus protocol version spoken to upload links.
	TusVersion = "1.0.0"
)

// Settings say how to reach the video host. They come from LINEAGE_VIDEO_* variables.
type Settings struct {
	APIURL       string // LINEAGE_VIDEO_API_URL, default DefaultAPIURL
	ClientID     string // LINEAGE_VIDEO_CLIENT_ID, for token requests
	ClientSecret string // LINEAGE_VIDEO_CLIENT_SECRET, for token requests
	AccessToken  string // LINEAGE_VIDEO_ACCESS_TOKEN, for everything else
}

// SettingsFromEnv reads the LINEAGE_VIDEO_* variables through getenv (os.Getenv).
func SettingsFromEnv(getenv func(string) string) Settings {
	s := Settings{
		APIURL:       strings.TrimSpace(getenv("LINEAGE_VIDEO_API_URL")),
		ClientID:     strings.TrimSpace(getenv("LINEAGE_VIDEO_CLIENT_ID")),
		ClientSecret: strings.TrimSpace(getenv("LINEAGE_VIDEO_CLIENT_SECRET")),
		AccessToken:  strings.TrimSpace(getenv("LINEAGE_VIDEO_ACCESS_TOKEN")),
	}
	if s.APIURL == "" {
		s.APIURL = DefaultAPIURL
	}
	return s
}

// Client talks to the video host's API and to the upload links it hands out.
type Client struct {
	settings Settings
	base     *url.URL
	http     *http.Client
	// timeout bounds API calls and HEADs, which carry no file data. PATCHes are bounded
	// by the Uploader's stall watchdog instead, since a chunk may take long on a slow line.
	timeout time.Duration
}

// requestTimeout is the limit on an API call or a HEAD.
const requestTimeout = 2 * time.Minute

// NewClient checks the settings and returns a client. hc may be nil for a client with
// timeouts suited to long uploads (no overall timeout, bounded waits for answers).
func NewClient(s Settings, hc *http.Client) (*Client, error) {
	if s.APIURL == "" {
		s.APIURL = DefaultAPIURL
	}
	u, err := url.Parse(s.APIURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("LINEAGE_VIDEO_API_URL must be an absolute http(s) URL, got %q", s.APIURL)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	if hc == nil {
		hc = defaultHTTPClient()
	}
	// A redirected POST would turn into a GET; an answer that redirects is an error here.
	c := *hc
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &Client{settings: s, base: u, http: &c, timeout: requestTimeout}, nil
}

func defaultHTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	t.TLSHandshakeTimeout = 30 * time.Second
	return &http.Client{Transport: t}
}

// APIURL is the base URL requests go to.
func (c *Client) APIURL() string { return c.base.String() }

// apiRequest is one call to the API (not to an upload link).
type apiRequest struct {
	method string
	path   string     // "/me/videos", may carry a query
	json   any        // body sent as JSON, or nil
	form   url.Values // body sent form-encoded, or nil
	basic  bool       // authenticate as the app (client id and secret), not with the token
}

// do sends r and decodes a 2xx JSON answer into out (which may be nil).
func (c *Client) do(ctx context.Context, r apiRequest, out any) error {
	if strings.TrimSpace(r.path) == "" {
		return ErrNoAPIPath
	}
	ref, err := url.Parse(r.path)
	if err != nil {
		return fmt.Errorf("bad API path %q: %v", r.path, err)
	}
	if ref.IsAbs() || ref.Host != "" {
		return fmt.Errorf("bad API path %q: give a path such as /me/videos, not a URL", r.path)
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	u := *c.base
	u.Path = c.base.Path + "/" + strings.TrimPrefix(ref.Path, "/")
	u.RawQuery = ref.RawQuery

	var body io.Reader
	var contentType string
	switch {
	case r.json != nil:
		b, err := json.Marshal(r.json)
		if err != nil {
			return err
		}
		body, contentType = bytes.NewReader(b), "application/json"
	case r.form != nil:
		body, contentType = strings.NewReader(r.form.Encode()), "application/x-www-form-urlencoded"
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u.String(), body)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", Accept)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	switch {
	case r.basic:
		if c.settings.ClientID == "" || c.settings.ClientSecret == "" {
			return errors.New("LINEAGE_VIDEO_CLIENT_ID and LINEAGE_VIDEO_CLIENT_SECRET must be set to ask for a token")
		}
		req.SetBasicAuth(c.settings.ClientID, c.settings.ClientSecret)
	case c.settings.AccessToken != "":
		req.Header.Set("Authorization", "Bearer "+c.settings.AccessToken)
	case c.settings.ClientID != "" && c.settings.ClientSecret != "":
		// Without a token the API accepts the app's own credentials (unauthenticated calls).
		req.SetBasicAuth(c.settings.ClientID, c.settings.ClientSecret)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return &transportError{err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return &transportError{err}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &StatusError{Method: r.method, Target: ref.Path, Status: resp.StatusCode, Message: apiErrorMessage(data)}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s %s: the answer is not the expected JSON: %v", r.method, ref.Path, err)
	}
	return nil
}

// apiErrorMessage pulls the human part out of an API error body.
func apiErrorMessage(body []byte) string {
	var e struct {
		Error            string `json:"error"`
		ErrorDescription string `json:"error_description"`
		DeveloperMessage string `json:"developer_message"`
	}
	if json.Unmarshal(body, &e) != nil {
		s := strings.TrimSpace(string(body))
		if len(s) > 200 {
			s = s[:200] + "…"
		}
		return s
	}
	parts := []string{}
	for _, p := range []string{e.Error, e.ErrorDescription, e.DeveloperMessage} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " — ")
}

// Token is the video host's answer to a token request.
type Token struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	Scope       string `json:"scope"`
	App         *struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	} `json:"app,omitempty"`
	User *struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	} `json:"user,omitempty"`
}

// ExchangeCode trades an authorisation code (from the browser redirect to redirectURI)
// for a user's access token: POST /oauth/access_token with the app's Basic credentials.
func (c *Client) ExchangeCode(ctx context.Context, code, redirectURI string) (Token, error) {
	if code == "" || redirectURI == "" {
		return Token{}, errors.New("both --code and --redirect-uri are needed")
	}
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {redirectURI}}
	return c.token(ctx, "/oauth/access_token", form)
}

// ClientCredentials asks for an app token with the given scopes (space- or
// comma-separated; DefaultScope when empty): POST /oauth/authorize/client.
func (c *Client) ClientCredentials(ctx context.Context, scope string) (Token, error) {
	scope = strings.Join(strings.Fields(strings.ReplaceAll(scope, ",", " ")), " ")
	if scope == "" {
		scope = DefaultScope
	}
	form := url.Values{"grant_type": {"client_credentials"}, "scope": {scope}}
	return c.token(ctx, "/oauth/authorize/client", form)
}

func (c *Client) token(ctx context.Context, path string, form url.Values) (Token, error) {
	var t Token
	if err := c.do(ctx, apiRequest{method: http.MethodPost, path: path, form: form, basic: true}, &t); err != nil {
		return Token{}, fmt.Errorf("token request refused: %w", err)
	}
	if t.AccessToken == "" {
		return Token{}, fmt.Errorf("POST %s: the answer has no access_token", path)
	}
	return t, nil
}

// Video is the part of a video object the tools use.
type Video struct {
	URI    string       `json:"uri"`
	Name   string       `json:"name"`
	Upload UploadTicket `json:"upload"`
}

// UploadTicket is a video's (or version's) "upload" object: where the bytes go.
type UploadTicket struct {
	Status     string      `json:"status,omitempty"`
	UploadLink string      `json:"upload_link"`
	Approach   string      `json:"approach"`
	Size       json.Number `json:"size,omitempty"`
}

type uploadRequest struct {
	Approach string `json:"approach"`
	Size     int64  `json:"size"`
}

// CreateVideo creates a video that will receive size bytes by tus and returns its URI and
// upload link: POST /me/videos?fields=uri,name,upload.
func (c *Client) CreateVideo(ctx context.Context, size int64, name, description string) (Video, error) {
	body := map[string]any{"upload": uploadRequest{Approach: "tus", Size: size}}
	if name != "" {
		body["name"] = name
	}
	if description != "" {
		body["description"] = description
	}
	const path = "/me/videos?fields=uri,name,upload"
	var v Video
	if err := c.do(ctx, apiRequest{method: http.MethodPost, path: path, json: body}, &v); err != nil {
		return Video{}, initiateError(err)
	}
	if _, err := VideoPageLink(v.URI); err != nil {
		return Video{}, specError(ErrInitiate, "(the answer to POST /me/videos has no usable video uri: %q)", v.URI)
	}
	link, err := c.checkTicket(v.Upload, "POST /me/videos")
	if err != nil {
		return Video{}, fmt.Errorf("%w; the video %s was created all the same: delete it on the video host", err, v.URI)
	}
	v.Upload.UploadLink = link
	return v, nil
}

// CreateVersion starts replacing the file of an existing video:
// POST {videoURI}/versions?fields=upload. The video keeps its URI and page.
func (c *Client) CreateVersion(ctx context.Context, videoURI, fileName string, size int64) (UploadTicket, error) {
	if strings.TrimSpace(videoURI) == "" {
		return UploadTicket{}, ErrNoAPIPath
	}
	body := map[string]any{"file_name": fileName, "upload": uploadRequest{Approach: "tus", Size: size}}
	path := strings.TrimSuffix(videoURI, "/") + "/versions?fields=upload"
	var v Video
	if err := c.do(ctx, apiRequest{method: http.MethodPost, path: path, json: body}, &v); err != nil {
		return UploadTicket{}, initiateError(err)
	}
	link, err := c.checkTicket(v.Upload, "POST "+strings.TrimSuffix(videoURI, "/")+"/versions")
	if err != nil {
		return UploadTicket{}, err
	}
	v.Upload.UploadLink = link
	return v.Upload, nil
}

func initiateError(err error) error {
	if errors.Is(err, ErrNoAPIPath) {
		return err
	}
	return specError(ErrInitiate, "(%v)", err)
}

// checkTicket returns the absolute upload link of t, or ErrBadLocation. A relative link
// is resolved against the API URL, as tus clients resolve a relative Location.
func (c *Client) checkTicket(t UploadTicket, call string) (string, error) {
	if t.Approach != "" && t.Approach != "tus" {
		return "", fmt.Errorf("%w: the answer to %s offers the %q approach, not tus", ErrBadLocation, call, t.Approach)
	}
	raw := strings.TrimSpace(t.UploadLink)
	if raw == "" {
		return "", fmt.Errorf("%w: the answer to %s has no upload.upload_link", ErrBadLocation, call)
	}
	ref, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("%w: the answer to %s has an upload.upload_link that is not a URL: %q", ErrBadLocation, call, raw)
	}
	u := c.base.ResolveReference(ref)
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%w: the answer to %s has an upload.upload_link that is not an http(s) URL: %q", ErrBadLocation, call, raw)
	}
	return u.String(), nil
}

// VideoPageLink turns a video URI (/videos/123456) into its page (https://vimeo.com/123456),
// the address a content document's video block embeds.
func VideoPageLink(uri string) (string, error) {
	id, ok := strings.CutPrefix(uri, "/videos/")
	if !ok || id == "" || strings.Trim(id, "0123456789") != "" {
		return "", fmt.Errorf("%q is not a video URI such as /videos/123456", uri)
	}
	return "https://vimeo.com/" + id, nil
}

// NormalizeVideoURI accepts what an operator might paste for a video, /videos/123456,
// 123456 or https://vimeo.com/123456, and returns the API URI /videos/123456.
// An empty argument is ErrNoAPIPath: the replace call has nothing to address.
func NormalizeVideoURI(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", ErrNoAPIPath
	}
	if u, err := url.Parse(s); err == nil && u.Host != "" {
		host := strings.TrimPrefix(u.Hostname(), "www.")
		if host == "vimeo.com" || host == "player.vimeo.com" || strings.HasSuffix(host, "api.vimeo.com") {
			parts := strings.Split(strings.Trim(u.Path, "/"), "/")
			for _, p := range parts {
				if p != "" && strings.Trim(p, "0123456789") == "" {
					s = "/videos/" + p
					break
				}
			}
		}
	}
	if strings.Trim(s, "0123456789") == "" {
		s = "/videos/" + s
	}
	s = "/" + strings.Trim(s, "/")
	if _, err := VideoPageLink(s); err != nil {
		return "", fmt.Errorf("VIDEO_URI must look like /videos/123456 (or 123456, or a https://vimeo.com/123456 link), got %q", s)
	}
	return s, nil
}
