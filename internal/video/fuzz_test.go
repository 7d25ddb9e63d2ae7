package video

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// FuzzParseOffset: Upload-Offset and Upload-Length accept exactly the non-negative
// decimal integers that fit in an int64, and nothing else.
func FuzzParseOffset(f *testing.F) {
	for _, s := range []string{"0", "15", "007", "-1", "+5", " 5", "5 ", "1e3", "0x10", "", "9223372036854775807", "9223372036854775808", "99999999999999999999", "١٢"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := parseOffset(s)
		allDigits := s != "" && strings.Trim(s, "0123456789") == ""
		want, err := strconv.ParseInt(s, 10, 64)
		wantOK := allDigits && err == nil
		if ok != wantOK {
			t.Fatalf("parseOffset(%q) ok=%v, want %v", s, ok, wantOK)
		}
		if ok && (n != want || n < 0) {
			t.Fatalf("parseOffset(%q) = %d, want %d", s, n, want)
		}
	})
}

// FuzzByteCountHeader: any set of header values gives either a count that is one of
// them, or a description that names the header.
func FuzzByteCountHeader(f *testing.F) {
	f.Add("12", "", false)
	f.Add("12", "12", true)
	f.Add("12", "13", true)
	f.Add("abc", "", false)
	f.Fuzz(func(t *testing.T, a, b string, two bool) {
		h := http.Header{}
		h.Add("Upload-Offset", a)
		if two {
			h.Add("Upload-Offset", b)
		}
		n, problem := byteCountHeader(h, "Upload-Offset")
		if problem == "" {
			if want, ok := parseOffset(a); !ok || want != n || (two && a != b) {
				t.Fatalf("%q %q: accepted %d", a, b, n)
			}
			return
		}
		if !strings.Contains(problem, "Upload-Offset") {
			t.Fatalf("problem %q does not name the header", problem)
		}
	})
}

// FuzzNormalizeVideoURI: whatever an operator pastes, the result is either an error or
// a URI that has a page link.
func FuzzNormalizeVideoURI(f *testing.F) {
	for _, s := range []string{"/videos/1", "1", "https://vimeo.com/1", "https://player.vimeo.com/video/1?h=x", "", "/videos/", "//vimeo.com/5", "https://vimeo.com/channels/staff/12345"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		uri, err := NormalizeVideoURI(s)
		if err != nil {
			return
		}
		link, err := VideoPageLink(uri)
		if err != nil || !strings.HasPrefix(link, "https://vimeo.com/") {
			t.Fatalf("NormalizeVideoURI(%q) = %q, whose link fails: %v", s, uri, err)
		}
	})
}
