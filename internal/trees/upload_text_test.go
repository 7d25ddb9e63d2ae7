package trees_test

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"testing"

	"lineage/internal/httpx"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
	"lineage/internal/trees"
)

const uploadGED = "0 HEAD\n1 GEDC\n2 VERS 5.5.1\n1 CHAR UTF-8\n0 @I1@ INDI\n1 NAME Ezekiel /Uploadson/\n0 TRLR\n"

// uploadForm builds a multipart upload of a tree.
func uploadForm(title, desc, filename, file string) (body []byte, contentType string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("title", title)
	mw.WriteField("description", desc)
	h := textproto.MIMEHeader{}
	// Written by hand: CreateFormFile would escape the quotes but keep control characters.
	h.Set("Content-Disposition", `form-data; name="file"; filename="`+strings.ReplaceAll(filename, `"`, `\"`)+`"`)
	fw, _ := mw.CreatePart(h)
	fw.Write([]byte(file))
	mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}

// serveUpload sends one upload to the handler in process as the owner.
func serveUpload(h http.Handler, body []byte, contentType string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", "/api/trees/uploads", bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	req = req.WithContext(withViewer(req.Context(), trees.Viewer{ID: ownerID, Role: "member"}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestUploadTextFields: a tree's title is one line and its description has no control
// characters but line breaks; either rule broken answers 422 naming the field, and no
// tree is made.
func TestUploadTextFields(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db)
		h := httpx.Serve(treesRoom(s))
		bad := []struct {
			name, title, desc, filename, field, msg string
		}{
			{"ErrTitleHeaderInjection", "X\r\nBcc: evil@evil.com", "", "a.ged", "title", "The title must be a single line without control characters."},
			{"ErrTitleTab", "The\tSmiths", "", "a.ged", "title", "The title must be a single line without control characters."},
			{"ErrTitleOverride", "The \u202eshtimS", "", "a.ged", "title", "The title must be a single line without control characters."},
			{"ErrTitleNotUTF8", "The \xffSmiths", "", "a.ged", "title", "The title must be a single line without control characters."},
			{"ErrTitleTooLong", strings.Repeat("é", 201), "", "a.ged", "title", "The title may be at most 200 characters."},
			{"ErrDescriptionEscape", "Smiths", "one\x1b[2Jtwo", "a.ged", "description", "The description may hold line breaks but no other control characters."},
			{"ErrDescriptionNUL", "Smiths", "one\x00two", "a.ged", "description", "The description may hold line breaks but no other control characters."},
			{"ErrFileName", "Smiths", "", "a\u2028b.ged", "file", "The file name must be a single line without control characters."},
		}
		for _, tt := range bad {
			t.Run(tt.name, func(t *testing.T) {
				body, ct := uploadForm(tt.title, tt.desc, tt.filename, uploadGED)
				rec := serveUpload(h, body, ct)
				var got struct {
					Message string              `json:"message"`
					Errors  map[string][]string `json:"errors"`
				}
				json.Unmarshal(rec.Body.Bytes(), &got)
				if rec.Code != http.StatusUnprocessableEntity || len(got.Errors[tt.field]) == 0 || got.Errors[tt.field][0] != tt.msg {
					t.Fatalf("status %d, body %s; want 422 with errors.%s %q", rec.Code, rec.Body, tt.field, tt.msg)
				}
			})
		}
		own, err := s.OwnTrees(context.Background(), trees.Viewer{ID: ownerID, Role: "member"})
		if err != nil || len(own) != 0 {
			t.Fatalf("after rejected uploads the owner has %d trees (%v), want none", len(own), err)
		}

		// A textarea's CR LF line breaks are kept, as LF.
		body, ct := uploadForm("  The Uploadsons  ", "First line\r\nSecond line\r\n", "smiths.ged", uploadGED)
		rec := serveUpload(h, body, ct)
		if rec.Code != http.StatusCreated {
			t.Fatalf("upload: %d %s", rec.Code, rec.Body)
		}
		var res struct {
			Tree trees.Tree `json:"tree"`
		}
		json.Unmarshal(rec.Body.Bytes(), &res)
		if res.Tree.Title != "The Uploadsons" || res.Tree.Description != "First line\nSecond line" {
			t.Fatalf("stored title %q, description %q", res.Tree.Title, res.Tree.Description)
		}
	})
}

// FuzzUploadForm feeds arbitrary multipart bodies to the upload handler: it never
// panics and never answers 5xx; what it refuses it refuses with a 4xx.
func FuzzUploadForm(f *testing.F) {
	body, ct := uploadForm("The Smiths", "One\r\ntwo", "smiths.ged", uploadGED)
	boundary := strings.TrimPrefix(ct, "multipart/form-data; boundary=")
	f.Add(boundary, body)
	body, _ = uploadForm("X\r\nBcc: evil@evil.com", "", "a.ged", uploadGED)
	f.Add(boundary, body)
	body, _ = uploadForm("Smiths", "", "a.gdz", "PK\x03\x04garbage")
	f.Add(boundary, body)
	f.Add("b", []byte("--b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nT\r\n--b--\r\n"))
	f.Add("", []byte("not multipart"))
	db := storetest.SQLite(f)
	h := httpx.Serve(treesRoom(newService(f, db)))
	f.Fuzz(func(t *testing.T, boundary string, body []byte) {
		rec := serveUpload(h, body, "multipart/form-data; boundary="+boundary)
		if rec.Code >= 500 || rec.Code < 200 {
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	})
}
