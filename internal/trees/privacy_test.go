package trees_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"lineage/internal/auth/authtest"
	"lineage/internal/httpx"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
	"lineage/internal/trees"
)

// testServer serves the trees API with the reader taken from the X-Test-Viewer header
// ("ID ROLE"), standing in for the accounts middleware (cmd/lineage's tests run the
// real one).
func testServer(t testing.TB, s *trees.Service) *httptest.Server {
	h := httpx.Serve(treesRoom(s))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := r.Header.Get("X-Test-Viewer"); v != "" {
			id, role, _ := strings.Cut(v, " ")
			n, _ := strconv.ParseInt(id, 10, 64)
			r = r.WithContext(withViewer(r.Context(), trees.Viewer{ID: n, Role: role}))
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// get fetches a path as a reader ("" anonymous, or "ID ROLE") and returns status and body.
func get(t testing.TB, srv *httptest.Server, viewer, path string) (int, string) {
	t.Helper()
	return send(t, srv, viewer, "GET", path, "", nil)
}

// send makes a request as a reader, with a body of contentType when body is not nil,
// and returns status and body.
func send(t testing.TB, srv *httptest.Server, viewer, method, path, contentType string, body io.Reader) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, srv.URL+path, body)
	if body != nil {
		req.Header.Set("Content-Type", contentType)
	}
	if viewer != "" {
		req.Header.Set("X-Test-Viewer", viewer)
	}
	code, b, _ := authtest.Send(t, req)
	return code, string(b)
}

const (
	ownerID   = 1
	owner     = "1 member"
	stranger  = "2 member"
	editor    = "3 editor"
	anonymous = ""
)

// secrets are in the fixture only on living or restricted people (and their family).
var secrets = []string{"Robertus", "Bobbity", "Smythe", "Secretville", "Hiddenham", "Spymaster", "secret shared note",
	"private inline remark", "secret-photo", "secret page", "1950", "Secretchapel", "1975", "Karenina",
	"Confidentialton", "Quintessa", "Nodates",
	// RESN on a dead person's event and on a family
	"Confidentialresidence", "Kept from the public", "Privacyplace"}

func leaks(body string) []string {
	var out []string
	low := strings.ToLower(body)
	for _, s := range secrets {
		if strings.Contains(low, strings.ToLower(s)) {
			out = append(out, s)
		}
	}
	return out
}

func privacyFixture(t testing.TB, db *store.DB) *trees.Service {
	s := newService(t, db)
	importPath(t, s, "testdata/privacy.ged", trees.ImportOptions{Slug: "fam", Title: "Fixture family", OwnerID: ownerID})
	return s
}

// The living rule, as computed at import.
func TestLivingRule(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := privacyFixture(t, db)
		ctx := withViewer(context.Background(), staff)
		want := map[string]bool{
			"I1": false, // died 1960
			"I2": false, // buried, no date
			"I3": true,  // born 1950, no death
			"I4": false, // no dates; a child born 1930
			"I5": false, // DEAT Y
			"I6": true,  // RESN confidential, though born 1800
			"I7": true,  // no dates; married 1975
			"I8": false, // no dates; married 1900
		}
		for id, living := range want {
			p, err := s.Person(ctx, "fam", id)
			if err != nil {
				t.Fatal(err)
			}
			if p.Living != living {
				t.Errorf("%s (%s): living %v, want %v", id, p.Name, p.Living, living)
			}
		}
	})
}

// A living person never leaks to a public reader: not through the tree, the lists, the
// surname index, any person's page, the charts, the pedigree search or the global
// search; the owner and editors see everything.
func TestLivingNeverLeaks(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := privacyFixture(t, db)
		srv := testServer(t, s)
		ids := []string{"I1", "I2", "I3", "I4", "I5", "I6", "I7", "I8"}
		paths := []string{"/api/trees", "/api/trees/fam", "/api/trees/fam/surnames", "/api/trees/fam/people",
			"/api/trees/fam/people?surname=smith", "/api/trees/fam/people?surname=smythe-secret&surname_mode=exact",
			"/api/trees/fam/people?given=robertus", "/api/trees/fam/people?surname=smi*&surname_mode=wildcard",
			"/api/trees/fam/people?surname=smith&surname_mode=phonetic",
			"/api/trees/search?surname=smith", "/api/trees/search?surname=smith&surname_mode=soundex&year=1950",
			"/api/trees/search?place=secretville", "/api/trees/search?place=hiddenham&year=1999",
			"/api/trees/search?surname=brown", "/api/trees/search?surname=nodates",
			"/api/trees/search?surname=smith&given=robertus", "/api/trees/search?place=confidentialresidence",
			"/api/trees/search?place=privacyplace", "/api/trees/search?surname=smith&year=1930"}
		for _, id := range ids {
			paths = append(paths, "/api/trees/fam/people/"+id)
			for _, kind := range []string{"pedigree", "descendants", "hourglass"} {
				paths = append(paths, "/api/trees/fam/graph?person="+id+"&kind="+kind+"&generations=5")
			}
		}
		for _, viewer := range []string{anonymous, stranger} {
			for _, p := range paths {
				code, body := get(t, srv, viewer, p)
				if code != http.StatusOK {
					t.Errorf("%q GET %s: %d %s", viewer, p, code, body)
				}
				if l := leaks(body); len(l) > 0 {
					t.Errorf("%q GET %s leaks %v: %s", viewer, p, l, body)
				}
			}
		}
		// The global search's family trees group.
		for _, q := range []string{"Robertus Smith", "Smith", "Karenina Brown", "Quintessa Nodates", "Robertus Smith 1950"} {
			v := url.Values{"surname": {q[strings.LastIndex(q, " ")+1:]}, "surname_mode": {"variants"}}
			if i := strings.LastIndex(q, " "); i > 0 {
				v.Set("given", q[:i])
			}
			res, _, _, err := s.GlobalTrees(context.Background(), v, 10)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(res)
			if l := leaks(string(b)); len(l) > 0 {
				t.Errorf("global search %q leaks %v: %s", q, l, b)
			}
		}
		// The living person's page says Living and nothing else.
		_, body := get(t, srv, anonymous, "/api/trees/fam/people/I3")
		var p struct {
			Name   string `json:"name"`
			Living bool   `json:"living"`
			Names  []any  `json:"names"`
			Events []any  `json:"events"`
			Birth  any    `json:"birth"`
		}
		json.Unmarshal([]byte(body), &p)
		if p.Name != "Living" || !p.Living || len(p.Names)+len(p.Events) != 0 || p.Birth != nil {
			t.Errorf("living person to the public: %s", body)
		}
		// The owner and an editor see the living in full (so the checks above can fail).
		for _, viewer := range []string{owner, editor} {
			_, body := get(t, srv, viewer, "/api/trees/fam/people/I3")
			for _, want := range []string{"Robertus", "Secretville", "secret shared note", "private inline remark", "secret-photo", "secret page", "Secretchapel"} {
				if !strings.Contains(body, want) {
					t.Errorf("%s does not see %q: %s", viewer, want, body)
				}
			}
			if _, body := get(t, srv, viewer, "/api/trees/fam/people/I1"); !strings.Contains(body, "Confidentialresidence") {
				t.Errorf("%s does not see the RESN event: %s", viewer, body)
			}
			if _, body := get(t, srv, viewer, "/api/trees/fam/people/I4"); !strings.Contains(body, "Privacyplace") {
				t.Errorf("%s does not see the RESN family: %s", viewer, body)
			}
			_, body = get(t, srv, viewer, "/api/trees/search?surname=smith&given=robertus")
			if !strings.Contains(body, "Robertus") {
				t.Errorf("%s cannot find the living: %s", viewer, body)
			}
		}
		// The dead are shown in full to everyone.
		_, body = get(t, srv, anonymous, "/api/trees/fam/people/I1")
		for _, want := range []string{"John Smith", "1890", "Rochdale", "Living"} {
			if !strings.Contains(body, want) {
				t.Errorf("public page of I1 lacks %q: %s", want, body)
			}
		}
	})
}

// lineage export --public leaves the living out; a full export keeps them.
func TestPublicExport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := privacyFixture(t, db)
		for _, v := range []trees.ExportOptions{{Public: true}, {Public: true, Version: 3}} {
			out := string(export(t, s, "fam", v))
			if l := leaks(out); len(l) > 0 {
				t.Errorf("public export leaks %v:\n%s", l, out)
			}
			for _, want := range []string{"John /Smith/", "Living //", "@I3@ INDI", "FAMS @F4@", "1890", "Register of living persons"} {
				if !strings.Contains(out, want) {
					t.Errorf("public export lacks %q:\n%s", want, out)
				}
			}
		}
		full := string(export(t, s, "fam", trees.ExportOptions{}))
		if l := leaks(full); len(l) != len(secrets) {
			t.Errorf("full export lacks some of the fixture: has only %v", l)
		}
	})
}

// An upload is unpublished: only its owner and editors see it until an editor
// publishes it.
func TestUploadPublish(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db)
		srv := testServer(t, s)
		upload := func(viewer, title, file string) (int, string) {
			var buf bytes.Buffer
			mw := multipart.NewWriter(&buf)
			mw.WriteField("title", title)
			mw.WriteField("description", "Uploaded in a test")
			if file != "" {
				fw, _ := mw.CreateFormFile("file", "smiths.ged")
				fw.Write([]byte(file))
			}
			mw.Close()
			return send(t, srv, viewer, "POST", "/api/trees/uploads", mw.FormDataContentType(), &buf)
		}
		post := func(viewer, path string) int {
			code, _ := send(t, srv, viewer, "POST", path, "", nil)
			return code
		}
		const ged = "0 HEAD\n1 GEDC\n2 VERS 5.5.1\n1 CHAR UTF-8\n0 @I1@ INDI\n1 NAME Ezekiel /Uploadson/\n1 BIRT\n2 DATE 1801\n1 DEAT\n2 DATE 1870\n0 TRLR\n"
		if code, body := upload(anonymous, "Mine", ged); code != http.StatusUnauthorized {
			t.Fatalf("anonymous upload: %d %s", code, body)
		}
		if code, body := upload(owner, "", ged); code != http.StatusUnprocessableEntity || !strings.Contains(body, `"title"`) {
			t.Fatalf("upload without title: %d %s", code, body)
		}
		if code, body := upload(owner, "Mine", ""); code != http.StatusUnprocessableEntity || !strings.Contains(body, `"file"`) {
			t.Fatalf("upload without file: %d %s", code, body)
		}
		if code, body := upload(owner, "Mine", "this is not GEDCOM at all\n"); code != http.StatusUnprocessableEntity {
			t.Fatalf("upload of junk: %d %s", code, body)
		}
		code, body := upload(owner, "The Uploadson Family", ged)
		if code != http.StatusCreated {
			t.Fatalf("upload: %d %s", code, body)
		}
		var res struct {
			Tree trees.Tree `json:"tree"`
		}
		if err := json.Unmarshal([]byte(body), &res); err != nil {
			t.Fatal(err)
		}
		slug := res.Tree.Slug
		if slug != "the-uploadson-family" || res.Tree.Published || res.Tree.Counts.People != 1 || res.Tree.Owner == nil || res.Tree.Owner.ID != ownerID {
			t.Fatalf("uploaded tree: %s", body)
		}
		visible := func(viewer string) bool {
			code, _ := get(t, srv, viewer, "/api/trees/"+slug)
			_, list := get(t, srv, viewer, "/api/trees")
			_, found := get(t, srv, viewer, "/api/trees/search?surname=uploadson")
			_, people := get(t, srv, viewer, "/api/trees/"+slug+"/people/I1")
			inList := strings.Contains(list, slug)
			inSearch := strings.Contains(found, "Ezekiel")
			if (code == 200) != inList || (code == 200) != strings.Contains(people, "Ezekiel") {
				t.Errorf("%q: tree %d, in list %v, person page %s", viewer, code, inList, people)
			}
			return code == 200 && (inSearch || viewer == owner || viewer == editor)
		}
		for _, v := range []string{anonymous, stranger} {
			if visible(v) {
				t.Errorf("%q sees the unpublished upload", v)
			}
		}
		for _, v := range []string{owner, editor} {
			if !visible(v) {
				t.Errorf("%q does not see the unpublished upload", v)
			}
		}
		if _, mine := get(t, srv, owner, "/api/trees/uploads"); !strings.Contains(mine, slug) {
			t.Errorf("own uploads: %s", mine)
		}
		if _, theirs := get(t, srv, stranger, "/api/trees/uploads"); strings.Contains(theirs, slug) {
			t.Errorf("another member's uploads: %s", theirs)
		}
		if code := post(owner, "/api/trees/"+slug+"/publish"); code != http.StatusForbidden {
			t.Errorf("member publishes: %d", code)
		}
		if code := post(stranger, "/api/trees/"+slug+"/publish"); code != http.StatusNotFound {
			t.Errorf("stranger publishes: %d", code)
		}
		if code := post(editor, "/api/trees/"+slug+"/publish"); code != http.StatusOK {
			t.Fatalf("editor publishes: %d", code)
		}
		for _, v := range []string{anonymous, stranger} {
			if !visible(v) {
				t.Errorf("%q does not see the published tree", v)
			}
		}
		// A second upload of the same title gets the next slug.
		if code, body := upload(owner, "The Uploadson Family", ged); code != http.StatusCreated || !strings.Contains(body, "the-uploadson-family-2") {
			t.Errorf("second upload: %d %s", code, body)
		}
		// Deleting: not by others, not a published tree by its member owner; an
		// unpublished one by its owner.
		del := func(viewer, slug string) int {
			code, _ := send(t, srv, viewer, "DELETE", "/api/trees/"+slug, "", nil)
			return code
		}
		if code := del(stranger, "the-uploadson-family-2"); code != http.StatusNotFound {
			t.Errorf("stranger deletes: %d", code)
		}
		if code := del(owner, slug); code != http.StatusForbidden {
			t.Errorf("member deletes a published tree: %d", code)
		}
		if code := del(owner, "the-uploadson-family-2"); code != http.StatusNoContent {
			t.Errorf("owner deletes an unpublished tree: %d", code)
		}
		if code, _ := get(t, srv, owner, "/api/trees/the-uploadson-family-2"); code != http.StatusNotFound {
			t.Errorf("deleted tree: %d", code)
		}
	})
}
