package content

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// writeContentDir lays out dir/content/*.json and dir/media like the demo set.
func writeContentDir(t *testing.T, docs []Document) string {
	t.Helper()
	root := t.TempDir()
	content := filepath.Join(root, "content")
	os.MkdirAll(filepath.Join(content, "news"), 0o755)
	os.MkdirAll(filepath.Join(root, "media"), 0o755)
	for i, d := range docs {
		b, err := json.MarshalIndent(d, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(content, d.Type+"."+d.ID+".json")
		if i%2 == 0 {
			name = filepath.Join(content, "news", d.ID+".json") // subfolders are read too
		}
		if err := os.WriteFile(name, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, "media", "church.svg"), []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`), 0o644)
	return content
}

func TestImportExport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		dataDir := t.TempDir()
		svc := New(db, Options{DataDir: dataDir})
		src := writeContentDir(t, fixtureDocs())

		n, err := svc.ImportDir(ctx, src)
		if err != nil || n != len(fixtureDocs()) {
			t.Fatalf("ImportDir = %d, %v", n, err)
		}
		if b, err := os.ReadFile(filepath.Join(dataDir, "files", "media", "church.svg")); err != nil || !strings.Contains(string(b), "svg") {
			t.Fatalf("media not copied: %v", err)
		}
		first, err := svc.Export(ctx)
		if err != nil {
			t.Fatal(err)
		}

		out := t.TempDir()
		if n, err := svc.ExportDir(ctx, out); err != nil || n != len(first) {
			t.Fatalf("ExportDir = %d, %v", n, err)
		}
		if _, err := os.Stat(filepath.Join(out, "media", "church.svg")); err != nil {
			t.Fatalf("export media: %v", err)
		}
		b, _ := os.ReadFile(filepath.Join(out, "home.json"))
		if !strings.Contains(string(b), `"first_publication_date": "2024-01-01T09:00:00+0000"`) || !strings.Contains(string(b), `"alternate_languages": [`) {
			t.Errorf("exported file:\n%s", b)
		}

		// Import the export into a fresh database: the same documents come back.
		db2 := storetest.SQLite(t)
		svc2 := New(db2, Options{DataDir: t.TempDir()})
		if _, err := svc2.ImportDir(ctx, out); err != nil {
			t.Fatal(err)
		}
		second, err := svc2.Export(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := exportJSON(t, first), exportJSON(t, second); a != b {
			t.Errorf("round trip differs:\n%s\n%s", a, b)
		}
		// And re-importing into the same store changes nothing but the ref.
		if _, err := svc.ImportDir(ctx, out); err != nil {
			t.Fatal(err)
		}
		third, _ := svc.Export(ctx)
		if exportJSON(t, first) != exportJSON(t, third) {
			t.Error("re-import changed documents")
		}

		t.Run("BadJSONImportsNothing", func(t *testing.T) {
			dir := writeContentDir(t, fixtureDocs()[:3])
			os.WriteFile(filepath.Join(dir, "broken.json"), []byte("{\n  \"id\": \"x\",\n  \"type\": page\n}"), 0o644)
			fresh := New(storetest.SQLite(t), Options{DataDir: t.TempDir()})
			_, err := fresh.ImportDir(ctx, dir)
			if err == nil || !strings.Contains(err.Error(), "broken.json") || !strings.Contains(err.Error(), "line 3") {
				t.Fatalf("err = %v", err)
			}
			if docs, _ := fresh.Export(ctx); len(docs) != 0 {
				t.Errorf("%d documents imported despite a bad file", len(docs))
			}
		})
		t.Run("InvalidDocumentNamesFile", func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "nolang.json"), []byte(`{"id":"x","type":"page","data":{}}`), 0o644)
			_, err := New(storetest.SQLite(t), Options{}).ImportDir(ctx, dir)
			if err == nil || !strings.Contains(err.Error(), "nolang.json") || !strings.Contains(err.Error(), "lang") {
				t.Fatalf("err = %v", err)
			}
			os.WriteFile(filepath.Join(dir, "nolang.json"), []byte(`{"id":"x","type":"page","lang":"en-gb","data":[]}`), 0o644)
			_, err = New(storetest.SQLite(t), Options{}).ImportDir(ctx, dir)
			if err == nil || !strings.Contains(err.Error(), "data must be a JSON object") {
				t.Fatalf("err = %v", err)
			}
		})
		t.Run("DuplicateIDs", func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "a.json"), []byte(`{"id":"x","uid":"a","type":"page","lang":"en-gb"}`), 0o644)
			os.WriteFile(filepath.Join(dir, "b.json"), []byte(`{"id":"x","uid":"b","type":"page","lang":"en-gb"}`), 0o644)
			_, err := New(storetest.SQLite(t), Options{}).ImportDir(ctx, dir)
			if err == nil || !strings.Contains(err.Error(), "a.json") || !strings.Contains(err.Error(), "b.json") {
				t.Fatalf("err = %v", err)
			}
		})
		t.Run("MissingDir", func(t *testing.T) {
			_, err := svc.ImportDir(ctx, filepath.Join(t.TempDir(), "nope"))
			if err == nil || !strings.Contains(err.Error(), "nope") {
				t.Fatalf("err = %v", err)
			}
		})
		t.Run("IDDerivedFromUID", func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "a.json"), []byte(`{"uid":"derived","type":"page","lang":"en-gb","data":{}}`), 0o644)
			s := New(storetest.SQLite(t), Options{})
			if _, err := s.ImportDir(ctx, dir); err != nil {
				t.Fatal(err)
			}
			docs, _ := s.Export(ctx)
			if len(docs) != 1 || docs[0].ID != derivedID("page", "en-gb", "derived") || docs[0].FirstPublicationDate.IsZero() {
				t.Errorf("docs = %+v", docs)
			}
		})
		t.Run("LoadDemoOnlyWhenEmpty", func(t *testing.T) {
			if loaded, err := LoadDemo(ctx, svc, src); err != nil || loaded {
				t.Errorf("LoadDemo on a filled store = %v, %v", loaded, err)
			}
			empty := New(storetest.SQLite(t), Options{DataDir: t.TempDir()})
			if loaded, err := LoadDemo(ctx, empty, src); err != nil || !loaded {
				t.Errorf("LoadDemo on an empty store = %v, %v", loaded, err)
			}
		})
	})
}

func exportJSON(t *testing.T, docs []Document) string {
	t.Helper()
	var parts []string
	for _, d := range docs {
		// Compare data semantically: stored text may differ in spacing only.
		var data any
		json.Unmarshal(d.Data, &data)
		d.Data = nil
		parts = append(parts, jsonOf(t, d)+jsonOf(t, data))
	}
	return strings.Join(parts, "\n")
}

// TestImportDemoContent imports the real demo set, so a mistake in
// demo/content fails here rather than at `serve --demo`.
func TestImportDemoContent(t *testing.T) {
	dir := filepath.Join("..", "..", "demo", "content")
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the demo set is part of the repository: %v", err)
	}
	ctx := context.Background()
	svc := New(storetest.SQLite(t), Options{DataDir: t.TempDir(), PublicURL: "http://localhost:8080"})
	n, err := svc.ImportDir(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	res := search(t, svc, SearchParams{PageSize: 100, Lang: "*"})
	if res.TotalResultsSize != n {
		t.Errorf("imported %d, search sees %d", n, res.TotalResultsSize)
	}
	for _, d := range res.Results {
		if strings.Contains(jsonOf(t, d.Data), `"url":"/media/`) {
			t.Errorf("%s still has a root-relative media url", d.ID)
		}
	}
}

func TestImportDraftsDir(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := New(db, Options{DataDir: t.TempDir(), PublicURL: "http://localhost:8080", RefCheckInterval: -1})
		if _, err := svc.Publish(ctx, Document{ID: "about", UID: "about", Type: "page", Lang: "en-gb", Data: json.RawMessage(`{"title":"Published"}`)}); err != nil {
			t.Fatal(err)
		}
		before, err := svc.Repository(ctx)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "about.json"), []byte(`{"id":"about","uid":"about","type":"page","lang":"en-gb","tags":[],"data":{"title":"Draft"}}`), 0o644)
		n, err := svc.ImportDraftsDir(ctx, dir)
		if err != nil || n != 1 {
			t.Fatalf("n=%d err=%v", n, err)
		}
		after, _ := svc.Repository(ctx)
		if after.MasterRef != before.MasterRef {
			t.Fatal("saving drafts moved the master ref")
		}
		docs, err := svc.Export(ctx)
		if err != nil || len(docs) != 1 || !strings.Contains(string(docs[0].Data), "Published") {
			t.Fatalf("published content changed: %+v %v", docs, err)
		}
		t.Run("ErrInvalid", func(t *testing.T) {
			bad := t.TempDir()
			os.WriteFile(filepath.Join(bad, "x.json"), []byte(`{"id":"x"`), 0o644)
			if _, err := svc.ImportDraftsDir(ctx, bad); err == nil || !strings.Contains(err.Error(), "x.json") {
				t.Fatalf("err = %v", err)
			}
		})
	})
}
