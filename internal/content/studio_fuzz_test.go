package content

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"testing"

	"lineage/internal/httpx"
)

// refused reports whether a parser refused its input, and fails the test if it did
// so with anything but the API's error (which a request answers with its status).
func refused(t *testing.T, err error) bool {
	t.Helper()
	if err == nil {
		return false
	}
	if _, ok := err.(*httpx.Error); !ok {
		t.Fatalf("not an API error: %v", err)
	}
	return true
}

func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x += 7 {
		img.Set(x, x%h, color.RGBA{R: uint8(x), G: 80, B: 160, A: 255})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func decodeConfig(b []byte) (image.Config, string, error) {
	return image.DecodeConfig(bytes.NewReader(b))
}

func newMultipart(w io.Writer) *multipart.Writer { return multipart.NewWriter(w) }

// FuzzParseModel: an admin's model JSON never panics, and what is accepted answers as
// JSON that parses to the same model.
func FuzzParseModel(f *testing.F) {
	for _, name := range []string{"news_item", "page", "event"} {
		b, _ := modelFiles.ReadFile("models/types/" + name + ".json")
		f.Add(b)
	}
	f.Add([]byte(`{"id":"x","label":"X","json":{"Main":{"g":{"type":"Group","config":{"fields":{"a":{"type":"Text"}}}}}}}`))
	f.Add([]byte(`{"id":"x","label":"X","json":{"Main":{"s":{"type":"Slices","config":{"choices":{"hero":{"type":"SharedSlice"}}}}}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseModel(b)
		if refused(t, err) {
			return
		}
		m.source = "custom"
		out, _ := m.MarshalJSON()
		again, err := ParseModel(bytes.Replace(out, []byte(`"source":"custom",`), nil, 1))
		if err != nil || again.ID != m.ID {
			t.Fatalf("the answer of an accepted model does not parse: %v\n%s", err, out)
		}
	})
}

// FuzzParseSliceModel: a slice model never panics the parser.
func FuzzParseSliceModel(f *testing.F) {
	for _, name := range []string{"hero", "gallery", "grid"} {
		b, _ := modelFiles.ReadFile("models/slices/" + name + ".json")
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, err := ParseSliceModel(b)
		refused(t, err)
	})
}

// FuzzValidateDocument: any document data an editor sends is judged without a panic,
// every error names a field, and what passes for publishing passes for a draft.
func FuzzValidateDocument(f *testing.F) {
	set, err := fileModels()
	if err != nil {
		f.Fatal(err)
	}
	f.Add("news_item", "census", []byte(newsData))
	f.Add("page", "about", []byte(`{"parent":{"link_type":"Document","id":"x"},"body":[{"slice_type":"grid","primary":{},"items":[{"link":{"link_type":"Web","url":"/a"}}]}]}`))
	f.Add("event", "", []byte(`{"start":"2026-01-01T10:00:00+0000","summary":[{"type":"paragraph","text":"é","spans":[{"start":0,"end":1,"type":"em"}]}]}`))
	f.Fuzz(func(t *testing.T, typ, uid string, data []byte) {
		m := set.types[typ]
		if m == nil {
			m = set.types["news_item"]
		}
		fe, _ := ValidateDocument(m, set.slices, uid, []string{"news"}, data, true)
		if err := fe.Err(); err != nil {
			for k, msgs := range err.(*httpx.Error).Fields {
				if k == "" || len(msgs) == 0 {
					t.Fatalf("an error without a field: %v", err)
				}
			}
			return
		}
		if fe, _ := ValidateDocument(m, set.slices, uid, []string{"news"}, data, false); fe.Err() != nil {
			t.Fatalf("publishable but not saveable: %v", fe.Err())
		}
	})
}

// FuzzReleaseBody: a release's body never panics the parser; what it accepts has a
// label or a schedule only as given.
func FuzzReleaseBody(f *testing.F) {
	for _, b := range []string{`{"label":"Spring","scheduled_at":"2026-12-01T09:00:00Z"}`, `{"scheduled_at":null}`,
		`{"scheduled_at":"2026-12-01T09:00:00+0100"}`, `{"label":7}`, ``, `[]`} {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		in, err := parseReleaseBody(b)
		if refused(t, err) {
			return
		}
		if in.ScheduledAt != nil && !in.SetSchedule {
			t.Fatal("a time without SetSchedule")
		}
	})
}
