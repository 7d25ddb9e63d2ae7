package content

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/store/storetest"
)

// TestPrismicClient runs the web app's own @prismicio/client (web/node_modules) against
// this API: the real peer, not our idea of it. It needs node and an installed web app
// (make test installs both); without them it fails and says what to run, because a
// compatibility test that quietly does not run proves nothing.
func TestPrismicClient(t *testing.T) {
	if testing.Short() {
		t.Skip("runs node")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node not found: install Node.js; the @prismicio/client compatibility test cannot run")
	}
	clientPkg, _ := filepath.Abs(filepath.Join("..", "..", "web", "node_modules", "@prismicio", "client"))
	var pkg struct {
		Main string `json:"main"`
	}
	b, err := os.ReadFile(filepath.Join(clientPkg, "package.json"))
	if err != nil || json.Unmarshal(b, &pkg) != nil || pkg.Main == "" {
		t.Fatal("web/node_modules/@prismicio/client is not installed: run `make deps` (npm ci in web/)")
	}

	ctx := context.Background()
	db := storetest.SQLite(t)
	dataDir := t.TempDir()
	os.MkdirAll(MediaDir(dataDir), 0o755)
	os.WriteFile(filepath.Join(MediaDir(dataDir), "census.png"), []byte("\x89PNG\r\n\x1a\n"), 0o644)

	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	// Editor: the studio's test accounts (studio_test.go), so the script writes through
	// the studio's API as an editor.
	svc := New(db, Options{PublicURL: srv.URL, DataDir: dataDir, Editor: testEditor})
	if _, err := svc.Import(ctx, fixtureDocs()); err != nil {
		t.Fatal(err)
	}
	for _, rm := range []httpx.Room{room(svc), studioRoom(svc)} {
		for _, m := range rm.Mounts() {
			mux.Handle(m.Pattern, m.Handler)
		}
	}
	mux.HandleFunc("POST /_publish", func(w http.ResponseWriter, r *http.Request) {
		if _, err := svc.Publish(ctx, Document{ID: "ctl", UID: "ctl", Type: "page", Lang: "en-gb"}); err != nil {
			http.Error(w, err.Error(), 500)
		}
	})
	mux.HandleFunc("POST /_draft", func(w http.ResponseWriter, r *http.Request) {
		var d Document
		json.NewDecoder(r.Body).Decode(&d)
		if _, err := svc.SaveDraft(ctx, d); err != nil {
			http.Error(w, err.Error(), 500)
		}
	})
	mux.HandleFunc("POST /_preview", func(w http.ResponseWriter, r *http.Request) {
		ttl, _ := time.ParseDuration(r.URL.Query().Get("ttl"))
		token, err := svc.CreatePreview(ctx, ttl)
		if err != nil {
			http.Error(w, err.Error(), 500)
		}
		w.Write([]byte(token))
	})
	private := httptest.NewServer(handler(New(db, Options{AccessToken: "s3cret"})))
	defer private.Close()

	cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", "prismic-client.mjs"))
	cmd.Env = append(os.Environ(), "BASE="+srv.URL, "PRIVATE="+private.URL,
		"CLIENT="+filepath.Join(clientPkg, pkg.Main))
	out, err := cmd.CombinedOutput()
	t.Logf("@prismicio/client against the content API:\n%s", out)
	if err != nil || !strings.Contains(string(out), "all passed") {
		t.Fatalf("node: %v", err)
	}
}
