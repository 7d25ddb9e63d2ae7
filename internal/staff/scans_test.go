package staff_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"lineage/internal/research"
	"lineage/internal/staff"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

func pngOf(t *testing.T, w, h int, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestScansUpload: images sent for one record are cut in the background with
// progress and attached as its pages; a manifest can attach them instead, naming only
// the files sent; bad input is a 422 on its field.
func TestScansUpload(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		ed, _ := e.signedIn("Eddie", "editor")
		if _, err := e.rs.ImportRecords(t.Context(), strings.NewReader("record_id,record_type,date,place,role,surname,given_names\n"+
			"S1,baptism,1850,York,principal,Scanned,Sam\nS2,baptism,1851,York,principal,Scanned,Sue\n"), nil, research.ImportOptions{Collection: "york"}, 0); err != nil {
			t.Fatal(err)
		}
		red, blue := pngOf(t, 300, 200, color.RGBA{200, 0, 0, 255}), pngOf(t, 200, 300, color.RGBA{0, 0, 200, 255})
		var ja jobAnswer
		st, body := ed.upload("/api/studio/scans/uploads", map[string]string{"collection": "york", "record": "S1"},
			[]formFile{{"files", "page-1.png", red}, {"files", "page-2.png", blue}})
		want(t, "upload", st, body, http.StatusAccepted, &ja)
		if ja.Job.Kind != staff.KindScans {
			t.Errorf("job %+v", ja.Job)
		}
		evs := ed.events(ja.Job.ID)
		last := evs[len(evs)-1]
		if last.name != "done" {
			t.Fatalf("last event %s: %+v %v", last.name, last.job, last.job.Error)
		}
		if e.pagesChanged.Load() != 1 {
			t.Errorf("the scans job told the page caches %d times, want once", e.pagesChanged.Load())
		}
		var rep staff.ScansReport
		if err := json.Unmarshal(last.job.Report, &rep); err != nil || rep.Scans != 2 || rep.Cut != 2 || len(rep.Items) != 2 || rep.Items[0].File != "page-1.png" {
			t.Fatalf("report %s: %v", last.job.Report, err)
		}
		var pages int
		if err := db.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM iiif_images`).Scan(&pages); err != nil || pages != 2 {
			t.Errorf("pages stored: %d %v", pages, err)
		}

		manifest := "file,record,page\npage-3.png,S2,1\n"
		st, body = ed.upload("/api/studio/scans/uploads", map[string]string{"collection": "york"},
			[]formFile{{"files", "page-3.png", red}, {"manifest", "m.csv", []byte(manifest)}})
		want(t, "manifest upload", st, body, http.StatusAccepted, &ja)
		if evs := ed.events(ja.Job.ID); evs[len(evs)-1].name != "done" {
			t.Errorf("manifest job: %+v", evs[len(evs)-1].job)
		}

		for name, c := range map[string]struct {
			fields map[string]string
			files  []formFile
			field  string
		}{
			"no files":        {map[string]string{"collection": "york"}, nil, "files"},
			"not an image":    {map[string]string{"collection": "york"}, []formFile{{"files", "notes.txt", []byte("hi")}}, "files"},
			"no collection":   {nil, []formFile{{"files", "a.png", red}}, "collection"},
			"unknown coll":    {map[string]string{"collection": "nowhere"}, []formFile{{"files", "a.png", red}}, "collection"},
			"two targets":     {map[string]string{"collection": "york", "record": "S1", "person": "t:I1"}, []formFile{{"files", "a.png", red}}, "record"},
			"bad person":      {map[string]string{"collection": "york", "person": "I1"}, []formFile{{"files", "a.png", red}}, "record"},
			"folder":          {map[string]string{"collection": "york"}, []formFile{{"files", "a.png", red}, {"manifest", "m.csv", []byte("file,record\n../../etc/a.png,S1\n")}}, "manifest"},
			"not sent":        {map[string]string{"collection": "york"}, []formFile{{"files", "a.png", red}, {"manifest", "m.csv", []byte("file,record\nb.png,S1\n")}}, "manifest"},
			"bad manifest":    {map[string]string{"collection": "york"}, []formFile{{"files", "a.png", red}, {"manifest", "m.csv", []byte("file,colour\na.png,red\n")}}, "manifest"},
			"same name twice": {map[string]string{"collection": "york"}, []formFile{{"files", "a.png", red}, {"files", "a.png", blue}}, "files"},
			"empty file":      {map[string]string{"collection": "york"}, []formFile{{"files", "a.png", nil}}, "files"},
		} {
			st, body := ed.upload("/api/studio/scans/uploads", c.fields, c.files)
			if st != http.StatusUnprocessableEntity || !strings.Contains(string(body), `"`+c.field+`"`) {
				t.Errorf("%s: %d %s", name, st, body)
			}
		}
		if es := e.auditEntries(staff.ActionScansImport); len(es) < 2 {
			t.Errorf("audit: %+v", es)
		}
		// Three sets waiting (written as a server that has them would): a fourth waits.
		u, _ := e.acc.UserByEmail(t.Context(), "eddie@example.org")
		for i := 0; i < staff.MaxScanJobsPerUser; i++ {
			now := e.st.Now().Unix()
			if _, err := db.ExecContext(t.Context(), db.Rebind(`INSERT INTO staff_jobs (kind, state, user_id, created_at, updated_at, heartbeat_at) VALUES ('scans', 'queued', ?, ?, ?, ?)`),
				u.ID, now, now, now); err != nil {
				t.Fatal(err)
			}
		}
		st, body = ed.upload("/api/studio/scans/uploads", map[string]string{"collection": "york", "record": "S1"}, []formFile{{"files", "page-9.png", red}})
		if st != http.StatusTooManyRequests {
			t.Errorf("a fourth set of scans: %d %s", st, body)
		}
	})
}
