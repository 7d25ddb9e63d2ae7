// Package videotest is an in-process peer of the video host for tests: the few Vimeo API
// 3.4 endpoints the video tools call, answered by a small hand-written handler, and upload
// links served by a real tusd (github.com/tus/tusd/v2) with a file store and an in-memory
// locker, so the tus side is the real protocol and not our own reading of it. Faults are
// injected by wrapping the tus handler (see faults.go).
//
// Only tests import this package; the lineage binary does not contain tusd.
package videotest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tus/tusd/v2/pkg/filestore"
	tusd "github.com/tus/tusd/v2/pkg/handler"
	"github.com/tus/tusd/v2/pkg/memorylocker"
	"golang.org/x/exp/slog"
)

// Credentials the fake accepts.
const (
	ClientID     = "fake-client-id"
	ClientSecret = "fake-client-secret"
	AccessToken  = "fake-user-token" // Bearer token for /me/videos and /videos/…
	GoodCode     = "fake-auth-code"  // the only authorisation code it exchanges
)

// Request is one request the fake saw, API or tus.
type Request struct {
	Method string
	Path   string // with the query
	Header http.Header
	Body   []byte // API requests only; tus bodies are in the store
}

// Video is a video the fake holds.
type Video struct {
	URI         string
	Name        string
	Description string
	FileNames   []string // file_name of each version after the first
	UploadIDs   []string // tus upload of the original and of each version, oldest first
}

// Server is the fake video host. URL is both the API base and the host of upload links.
type Server struct {
	URL string

	// API, when set, sees every API request first and answers it by returning true;
	// tests use it to make the host refuse or answer oddly.
	API func(w http.ResponseWriter, r *http.Request) bool

	tb       testing.TB
	srv      *httptest.Server
	store    filestore.FileStore
	composer *tusd.StoreComposer
	tus      http.Handler

	mu       sync.Mutex
	wrap     func(http.Handler) http.Handler
	requests []Request
	videos   map[string]*Video
	order    []string
	nextID   int
}

// New starts a fake video host that stops when the test ends.
func New(tb testing.TB) *Server {
	tb.Helper()
	s := &Server{tb: tb, videos: map[string]*Video{}, nextID: 100001}
	s.store = filestore.New(tb.TempDir())
	s.composer = tusd.NewStoreComposer()
	s.store.UseIn(s.composer)
	memorylocker.New().UseIn(s.composer)
	h, err := tusd.NewHandler(tusd.Config{
		BasePath:      "/files/",
		StoreComposer: s.composer,
		Logger:        slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		tb.Fatalf("videotest: tusd: %v", err)
	}
	s.tus = http.StripPrefix("/files/", h)

	mux := http.NewServeMux()
	mux.HandleFunc("/files/", s.serveTus)
	mux.HandleFunc("POST /oauth/access_token", s.accessToken)
	mux.HandleFunc("POST /oauth/authorize/client", s.clientToken)
	mux.HandleFunc("POST /me/videos", s.createVideo)
	mux.HandleFunc("POST /videos/{id}/versions", s.createVersion)
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/files/") {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			s.record(r, body)
			if s.API != nil && s.API(w, r) {
				return
			}
		} else {
			s.record(r, nil)
		}
		mux.ServeHTTP(w, r)
	}))
	tb.Cleanup(s.srv.Close)
	s.URL = s.srv.URL
	return s
}

// Close stops the server now (it also stops when the test ends).
func (s *Server) Close() { s.srv.Close() }

// SetTusWrapper puts wrap around the tus handler for the requests that follow; nil
// removes it. Fault injectors in faults.go are such wrappers.
func (s *Server) SetTusWrapper(wrap func(http.Handler) http.Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.wrap = wrap
}

func (s *Server) serveTus(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	wrap := s.wrap
	s.mu.Unlock()
	h := s.tus
	if wrap != nil {
		h = wrap(h)
	}
	h.ServeHTTP(w, r)
}

func (s *Server) record(r *http.Request, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.RequestURI(), Header: r.Header.Clone(), Body: body})
}

// Requests returns every request seen so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Count is how many requests had this method and a path starting with prefix.
func (s *Server) Count(method, prefix string) int {
	n := 0
	for _, r := range s.Requests() {
		if r.Method == method && strings.HasPrefix(r.Path, prefix) {
			n++
		}
	}
	return n
}

// Videos returns the videos created so far, oldest first.
func (s *Server) Videos() []Video {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Video, 0, len(s.order))
	for _, uri := range s.order {
		v := *s.videos[uri]
		v.FileNames = append([]string(nil), v.FileNames...)
		v.UploadIDs = append([]string(nil), v.UploadIDs...)
		out = append(out, v)
	}
	return out
}

// AddVideo makes a video exist (with an empty, complete upload) for replace tests.
func (s *Server) AddVideo(name string) string {
	v, err := s.newVideo(context.Background(), name, "", 0)
	if err != nil {
		s.tb.Fatalf("videotest: %v", err)
	}
	return v.URI
}

// Stored returns the bytes tusd holds for the newest upload of the video uri, and the
// size the upload was created with.
func (s *Server) Stored(uri string) ([]byte, int64, error) {
	id, err := s.latestUpload(uri)
	if err != nil {
		return nil, 0, err
	}
	ctx := context.Background()
	up, err := s.store.GetUpload(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	info, err := up.GetInfo(ctx)
	if err != nil {
		return nil, 0, err
	}
	rd, err := up.GetReader(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer rd.Close()
	data, err := io.ReadAll(rd)
	return data, info.Size, err
}

// ExpireUpload withdraws the newest upload link of the video uri, as the host does with
// old links: from now on it answers 404.
func (s *Server) ExpireUpload(uri string) {
	id, err := s.latestUpload(uri)
	if err != nil {
		s.tb.Fatalf("videotest: %v", err)
	}
	ctx := context.Background()
	up, err := s.store.GetUpload(ctx, id)
	if err == nil {
		err = s.store.AsTerminatableUpload(up).Terminate(ctx)
	}
	if err != nil {
		s.tb.Fatalf("videotest: expiring %s: %v", uri, err)
	}
}

func (s *Server) latestUpload(uri string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.videos[uri]
	if !ok || len(v.UploadIDs) == 0 {
		return "", fmt.Errorf("no video %s", uri)
	}
	return v.UploadIDs[len(v.UploadIDs)-1], nil
}

// newUpload asks tusd's store for an upload of size bytes, as the host does when it
// hands out an upload link, and returns the link.
func (s *Server) newUpload(ctx context.Context, size int64) (id, link string, err error) {
	up, err := s.composer.Core.NewUpload(ctx, tusd.FileInfo{Size: size, MetaData: tusd.MetaData{}})
	if err != nil {
		return "", "", err
	}
	info, err := up.GetInfo(ctx)
	if err != nil {
		return "", "", err
	}
	return info.ID, s.URL + "/files/" + info.ID, nil
}

func (s *Server) newVideo(ctx context.Context, name, description string, size int64) (*Video, error) {
	id, _, err := s.newUpload(ctx, size)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v := &Video{URI: "/videos/" + strconv.Itoa(s.nextID), Name: name, Description: description, UploadIDs: []string{id}}
	s.nextID++
	s.videos[v.URI] = v
	s.order = append(s.order, v.URI)
	return v, nil
}

// --- API endpoints ---

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/vnd.vimeo.video+json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func apiError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]any{"error": msg, "error_code": status * 10})
}

func (s *Server) appAuth(w http.ResponseWriter, r *http.Request) bool {
	id, secret, ok := r.BasicAuth()
	if !ok || id != ClientID || secret != ClientSecret {
		apiError(w, http.StatusUnauthorized, "You must provide a valid authenticated access token.")
		return false
	}
	if r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
		apiError(w, http.StatusBadRequest, "expected a form body")
		return false
	}
	return true
}

func (s *Server) userAuth(w http.ResponseWriter, r *http.Request) bool {
	if r.Header.Get("Authorization") != "Bearer "+AccessToken {
		apiError(w, http.StatusUnauthorized, "You must provide a valid authenticated access token.")
		return false
	}
	return true
}

func (s *Server) accessToken(w http.ResponseWriter, r *http.Request) {
	if !s.appAuth(w, r) {
		return
	}
	if r.PostFormValue("grant_type") != "authorization_code" || r.PostFormValue("redirect_uri") == "" {
		apiError(w, http.StatusBadRequest, "invalid_request")
		return
	}
	if r.PostFormValue("code") != GoodCode {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid_grant", "error_description": "The authorization code is invalid or has expired."})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": AccessToken, "token_type": "bearer", "scope": "public private upload",
		"app":  map[string]any{"name": "Lineage", "uri": "/apps/1"},
		"user": map[string]any{"name": "Society Media", "uri": "/users/7"},
	})
}

func (s *Server) clientToken(w http.ResponseWriter, r *http.Request) {
	if !s.appAuth(w, r) {
		return
	}
	if r.PostFormValue("grant_type") != "client_credentials" {
		apiError(w, http.StatusBadRequest, "invalid_request")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": "fake-app-token", "token_type": "bearer", "scope": r.PostFormValue("scope"),
		"app": map[string]any{"name": "Lineage", "uri": "/apps/1"},
	})
}

type uploadBody struct {
	Approach string      `json:"approach"`
	Size     json.Number `json:"size"`
}

func (b uploadBody) size() (int64, bool) {
	n, err := strconv.ParseInt(b.Size.String(), 10, 64)
	return n, err == nil && n >= 0 && b.Approach == "tus"
}

func ticket(link string, size int64) map[string]any {
	return map[string]any{"status": "in_progress", "upload_link": link, "approach": "tus", "size": size}
}

func (s *Server) createVideo(w http.ResponseWriter, r *http.Request) {
	if !s.userAuth(w, r) {
		return
	}
	var body struct {
		Upload      uploadBody `json:"upload"`
		Name        string     `json:"name"`
		Description string     `json:"description"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		apiError(w, http.StatusBadRequest, "bad JSON: "+err.Error())
		return
	}
	size, ok := body.Upload.size()
	if !ok {
		apiError(w, http.StatusBadRequest, "upload must be {approach: tus, size: N}")
		return
	}
	v, err := s.newVideo(r.Context(), body.Name, body.Description, size)
	if err != nil {
		apiError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"uri": v.URI, "name": v.Name, "upload": ticket(s.URL+"/files/"+v.UploadIDs[0], size)})
}

func (s *Server) createVersion(w http.ResponseWriter, r *http.Request) {
	if !s.userAuth(w, r) {
		return
	}
	uri := "/videos/" + r.PathValue("id")
	s.mu.Lock()
	_, ok := s.videos[uri]
	s.mu.Unlock()
	if !ok {
		apiError(w, http.StatusNotFound, "The requested video couldn't be found.")
		return
	}
	var body struct {
		FileName string     `json:"file_name"`
		Upload   uploadBody `json:"upload"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		apiError(w, http.StatusBadRequest, "bad JSON: "+err.Error())
		return
	}
	size, ok := body.Upload.size()
	if !ok || body.FileName == "" {
		apiError(w, http.StatusBadRequest, "file_name and upload {approach: tus, size: N} are required")
		return
	}
	id, link, err := s.newUpload(r.Context(), size)
	if err != nil {
		apiError(w, http.StatusInternalServerError, err.Error())
		return
	}
	s.mu.Lock()
	v := s.videos[uri]
	v.UploadIDs = append(v.UploadIDs, id)
	v.FileNames = append(v.FileNames, body.FileName)
	n := len(v.UploadIDs) - 1
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{"uri": fmt.Sprintf("%s/versions/%d", uri, n), "upload": ticket(link, size)})
}
