package main

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lineage/internal/auth"
	"lineage/internal/research"
)

func writePNG(t *testing.T, path string, w, h int) {
	t.Helper()
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range m.Pix {
		m.Pix[i] = uint8(i * 7)
	}
	m.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMembersOnlyScansBehindAccounts runs the IIIF room as serve mounts it, behind the
// real accounts middleware: scans of a members-only collection answer 401 to a visitor
// to an unverified cookie and to a registered account without a membership, and are
// served to a member (a complimentary membership) signed in with the session
// cookie (the Sanctum flow) or a bearer token; public scans never touch the session.
// The scans are imported with `lineage import images`.
func TestMembersOnlyScansBehindAccounts(t *testing.T) {
	dir := t.TempDir()
	ctx, cfg, db, a, srv := startSite(t, filepath.Join(dir, "data"))

	rs := research.New(db, research.Options{})
	for _, c := range []struct{ slug, access, csv string }{
		{"briefs", research.AccessMembers, "record_id,record_type,date,place,role,surname,given_names\nB1,birth_brief,1901,Leeds,principal,Brown,Ada\n"},
		{"cards", research.AccessPublic, "record_id,record_type,date,place,role,surname,given_names\nC1,memorial_card,1893,Leeds,principal,Smith,Mary\n"},
	} {
		if _, err := rs.ImportRecords(ctx, strings.NewReader(c.csv), nil, research.ImportOptions{Collection: c.slug, Access: c.access}, 0); err != nil {
			t.Fatal(err)
		}
	}
	scans := filepath.Join(dir, "scans")
	os.Mkdir(scans, 0o755)
	writePNG(t, filepath.Join(scans, "B1.png"), 700, 600)
	writePNG(t, filepath.Join(scans, "front.png"), 600, 400)
	writePNG(t, filepath.Join(scans, "back.png"), 600, 400)
	testFile(t, scans, "cards.csv", "file,record,label,page_label\nfront.png,C1,Card of Mary Smith,Front\nback.png,C1,,Back\n")

	out, err := captureStdout(t, func() error {
		return runImport(ctx, []string{"images", "--data", cfg.DataDir, "--collection", "briefs", filepath.Join(scans, "B1.png")})
	})
	if err != nil || out != "briefs-b1-p001\t"+filepath.Join(scans, "B1.png")+"\n" {
		t.Fatalf("import images: %q %v", out, err)
	}
	out, err = captureStdout(t, func() error {
		return runImport(ctx, []string{"images", "--data", cfg.DataDir, "--collection", "cards", "--manifest", filepath.Join(scans, "cards.csv")})
	})
	if err != nil || !strings.Contains(out, "cards-c1-p001\t") || !strings.Contains(out, "cards-c1-p002\t") {
		t.Fatalf("import images --manifest: %q %v", out, err)
	}
	if err := runImport(ctx, []string{"images", "--data", cfg.DataDir, filepath.Join(scans, "B1.png")}); err == nil {
		t.Error("import images without --collection: no error")
	}

	u, tok := userWithToken(t, ctx, a, auth.NewUser{Email: "member@example.org"})
	visitor := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	jar, _ := cookiejar.New(nil)
	member := &http.Client{Jar: jar, CheckRedirect: visitor.CheckRedirect}
	// The Sanctum sign-in: csrf-cookie, then POST /login with the XSRF token.
	if res, err := member.Get(srv.URL + "/sanctum/csrf-cookie"); err != nil || res.StatusCode != 204 {
		t.Fatalf("csrf-cookie: %v %v", res, err)
	}
	su, _ := url.Parse(srv.URL)
	xsrf := ""
	for _, c := range jar.Cookies(su) {
		if c.Name == "XSRF-TOKEN" {
			xsrf = c.Value
		}
	}
	req, _ := http.NewRequest("POST", srv.URL+"/login", strings.NewReader(`{"email":"member@example.org","password":"correct horse battery"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-XSRF-TOKEN", xsrf)
	if res, err := member.Do(req); err != nil || res.StatusCode != 204 {
		t.Fatalf("login: %v %v", res, err)
	}
	get := func(c *http.Client, path, bearer string) (*http.Response, []byte) {
		t.Helper()
		return send(t, c, "GET", srv.URL+path, bearer, nil)
	}
	protected := []string{
		"/iiif/3/briefs-b1-p001/info.json",
		"/iiif/3/briefs-b1-p001/0,0,512,512/512,/0/default.jpg",
		"/iiif/3/briefs-b1-p001/full/!100,100/0/gray.png",
		"/iiif/3/manifests/briefs-b1",
		"/iiif/3/manifests/briefs-b1/canvas/1",
	}
	// A registered account without a membership is refused like a visitor; a
	// complimentary membership lets it in.
	for _, p := range protected {
		if res, _ := get(visitor, p, tok); res.StatusCode != 401 {
			t.Errorf("registered, no membership (bearer) %s: %d", p, res.StatusCode)
		}
	}
	if _, err := a.membership.GrantMember(ctx, 0, u.ID, "test"); err != nil {
		t.Fatal(err)
	}
	stranger := &http.Client{Jar: func() http.CookieJar { j, _ := cookiejar.New(nil); return j }()}
	stranger.Jar.SetCookies(su, []*http.Cookie{{Name: "lineage_session", Value: "not-a-session"}})
	for _, p := range protected {
		for name, c := range map[string]*http.Client{"visitor": visitor, "unknown cookie": stranger} {
			res, b := get(c, p, "")
			if res.StatusCode != 401 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") || res.Header.Get("Cache-Control") != "no-store" ||
				!strings.Contains(res.Header.Get("Vary"), "Cookie") || !strings.Contains(string(b), "Members only") {
				t.Errorf("%s %s: %d %q %v", name, p, res.StatusCode, b, res.Header)
			}
		}
		res, b := get(member, p, "")
		cc := res.Header.Get("Cache-Control")
		if res.StatusCode != 200 || strings.Contains(cc, "public") || (cc != "private, max-age=3600" && cc != "no-store") || !strings.Contains(res.Header.Get("Vary"), "Cookie") {
			t.Errorf("member (cookie) %s: %d %s %v", p, res.StatusCode, b, res.Header)
		}
		if res, _ := get(visitor, p, tok); res.StatusCode != 200 || res.Header.Get("Cache-Control") != "private, max-age=3600" {
			t.Errorf("member (bearer) %s: %d %v", p, res.StatusCode, res.Header)
		}
	}
	// The images API tells the page whether the requester may see the scans.
	for name, c := range map[string]*http.Client{"visitor": visitor, "member": member} {
		res, b := get(c, "/api/images/briefs-b1", "")
		var item map[string]any
		json.Unmarshal(b, &item)
		allowed := name == "member"
		if res.StatusCode != 200 || item["access"] != "members" || item["allowed"] != allowed || (len(item["images"].([]any)) == 1) != allowed {
			t.Errorf("%s: /api/images/briefs-b1: %d %v", name, res.StatusCode, item)
		}
	}
	// A public scan for a signed-in member: no session work, cacheable by anyone.
	res, _ := get(member, "/iiif/3/cards-c1-p002/full/max/0/default.jpg", "")
	if res.StatusCode != 200 || res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || len(res.Header.Values("Set-Cookie")) != 0 {
		t.Errorf("public scan for a member: %d %v", res.StatusCode, res.Header)
	}
	res, b := get(visitor, "/iiif/3/manifests/cards-c1", "")
	var m map[string]any
	if res.StatusCode != 200 || json.Unmarshal(b, &m) != nil || len(m["items"].([]any)) != 2 || m["label"].(map[string]any)["en"].([]any)[0] != "Card of Mary Smith" {
		t.Errorf("public manifest: %d %s", res.StatusCode, b)
	}
}
