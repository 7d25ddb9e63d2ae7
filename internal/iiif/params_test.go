package iiif

import (
	"errors"
	"image"
	"net/http"
	"strings"
	"testing"
)

func TestParseRegion(t *testing.T) {
	parses(t, "ParseRegion", ParseRegion, []parseCase[Region]{
		{"full", Region{Kind: RegionFull}},
		{"square", Region{Kind: RegionSquare}},
		{"0,0,512,512", Region{RegionPixels, 0, 0, 512, 512}},
		{"125,15,120,140", Region{RegionPixels, 125, 15, 120, 140}},
		{"pct:41.6,7.5,40,70", Region{RegionPercent, 41.6, 7.5, 40, 70}},
		{"pct:0,0,100,100", Region{RegionPercent, 0, 0, 100, 100}},
		{"pct:10,10,0.5,0.5", Region{RegionPercent, 10, 10, 0.5, 0.5}},
	})
	refuses(t, "ParseRegion", func(in string) error { _, err := ParseRegion(in); return err }, http.StatusBadRequest,
		"", "Full", "full ", "0,0,512", "0,0,512,512,1", "0,0,0,512", "0,0,512,0", "-1,0,10,10",
		"+1,0,10,10", "1.5,0,10,10", "a,b,c,d", "0,0,1e3,10", "pct:", "pct:0,0,0,10", "pct:1,2,3", "pct:-1,0,10,10",
		"pct:0,0,10,NaN", "pct:.5,0,10,10", "pct:5.,0,10,10", "0x10,0,10,10", "0, 0,10,10", "squared", "pct:0,0,10,10,")
}

func TestParseSize(t *testing.T) {
	parses(t, "ParseSize", ParseSize, []parseCase[Size]{
		{"max", Size{Kind: SizeMax}},
		{"^max", Size{Kind: SizeMax, Upscale: true}},
		{"150,", Size{Kind: SizeWidth, W: 150}},
		{"^150,", Size{Kind: SizeWidth, Upscale: true, W: 150}},
		{",150", Size{Kind: SizeHeight, H: 150}},
		{"^,150", Size{Kind: SizeHeight, Upscale: true, H: 150}},
		{"pct:50", Size{Kind: SizePercent, Percent: 50}},
		{"pct:12.5", Size{Kind: SizePercent, Percent: 12.5}},
		{"^pct:150", Size{Kind: SizePercent, Upscale: true, Percent: 150}},
		{"225,100", Size{Kind: SizeExact, W: 225, H: 100}},
		{"^360,360", Size{Kind: SizeExact, Upscale: true, W: 360, H: 360}},
		{"!225,100", Size{Kind: SizeConfined, W: 225, H: 100}},
		{"^!225,100", Size{Kind: SizeConfined, Upscale: true, W: 225, H: 100}},
	})
	refuses(t, "ParseSize", func(in string) error { _, err := ParseSize(in); return err }, http.StatusBadRequest,
		"", "full", "^full", "Max", ",", "0,", ",0", "0,0", "!225,", "!,100", "!0,100", "pct:", "pct:0", "pct:-5",
		"pct:abc", "225", "225,100,1", "-1,", "1.5,", "^^max", "!^225,100", "1234567890,", "225,x", " 225,")
}

func TestParseRotation(t *testing.T) {
	good := []struct {
		in      string
		mirror  bool
		degrees int
	}{
		{"0", false, 0}, {"90", false, 90}, {"180", false, 180}, {"270", false, 270}, {"360", false, 0},
		{"!0", true, 0}, {"!90", true, 90}, {"!180", true, 180}, {"!270", true, 270}, {"90.0", false, 90}, {"!180.00", true, 180},
	}
	for _, c := range good {
		m, d, err := ParseRotation(c.in)
		if err != nil || m != c.mirror || d != c.degrees {
			t.Errorf("ParseRotation(%q) = %v, %d, %v", c.in, m, d, err)
		}
	}
	rotation := func(in string) error { _, _, err := ParseRotation(in); return err }
	refuses(t, "ParseRotation", rotation, http.StatusBadRequest, "", "!", "-90", "361", "abc", "90deg", "!!90", "1e2", " 90")
	refuses(t, "ParseRotation", rotation, http.StatusNotImplemented, "45", "22.5", "!359", "90.5")
}

func TestParseQualityFormat(t *testing.T) {
	for _, in := range []string{"default.jpg", "color.jpg", "gray.jpg", "bitonal.jpg", "default.png", "gray.png", "bitonal.png"} {
		q, f, err := ParseQualityFormat(in)
		if err != nil || q+"."+f != in {
			t.Errorf("ParseQualityFormat(%q) = %q %q %v", in, q, f, err)
		}
	}
	qualityFormat := func(in string) error { _, _, err := ParseQualityFormat(in); return err }
	refuses(t, "ParseQualityFormat", qualityFormat, http.StatusBadRequest,
		"", "default", "default.", ".jpg", "grey.jpg", "native.jpg", "default.jpeg", "default.JPG", "default.jpg.png", "default.bmp")
	refuses(t, "ParseQualityFormat", qualityFormat, http.StatusNotImplemented,
		"default.webp", "default.tif", "default.gif", "default.jp2", "default.pdf")
}

// parseCase is one input of a parser and what it must parse to.
type parseCase[T comparable] struct {
	in   string
	want T
}

// parses checks that parse (called name in messages) reads each case's input as its want.
func parses[T comparable](t *testing.T, name string, parse func(string) (T, error), cases []parseCase[T]) {
	t.Helper()
	for _, c := range cases {
		if got, err := parse(c.in); err != nil || got != c.want {
			t.Errorf("%s(%q) = %+v, %v; want %+v", name, c.in, got, err, c.want)
		}
	}
}

// refuses checks that parse (called name in messages) refuses each input with an
// error of status want.
func refuses(t *testing.T, name string, parse func(string) error, want int, ins ...string) {
	t.Helper()
	for _, in := range ins {
		if err := parse(in); status(err) != want {
			t.Errorf("%s(%q): err %v, want a %d", name, in, err, want)
		}
	}
}

func status(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Status
	}
	return 0
}

// TestResolve applies requests to a 6000 × 4000 image with small limits.
func TestResolve(t *testing.T) {
	lim := Limits{MaxWidth: 5000, MaxHeight: 5000, MaxArea: 12_000_000}
	cases := []struct {
		region, size string
		rect         image.Rectangle
		w, h         int
		canonical    string
	}{
		{"full", "max", image.Rect(0, 0, 6000, 4000), 4242, 2828, "full/4242,2828/0/default.jpg"},
		{"full", "600,", image.Rect(0, 0, 6000, 4000), 600, 400, "full/600,400/0/default.jpg"},
		{"full", ",400", image.Rect(0, 0, 6000, 4000), 600, 400, "full/600,400/0/default.jpg"},
		{"full", "pct:10", image.Rect(0, 0, 6000, 4000), 600, 400, "full/600,400/0/default.jpg"},
		{"full", "100,100", image.Rect(0, 0, 6000, 4000), 100, 100, "full/100,100/0/default.jpg"},
		{"full", "!300,300", image.Rect(0, 0, 6000, 4000), 300, 200, "full/300,200/0/default.jpg"},
		{"full", "!300,100", image.Rect(0, 0, 6000, 4000), 150, 100, "full/150,100/0/default.jpg"},
		{"square", "max", image.Rect(1000, 0, 5000, 4000), 3464, 3464, "1000,0,4000,4000/3464,3464/0/default.jpg"},
		{"0,0,512,512", "max", image.Rect(0, 0, 512, 512), 512, 512, "0,0,512,512/max/0/default.jpg"},
		{"5632,3584,1024,1024", "184,", image.Rect(5632, 3584, 6000, 4000), 184, 208, "5632,3584,368,416/184,208/0/default.jpg"},
		{"pct:50,50,50,50", "max", image.Rect(3000, 2000, 6000, 4000), 3000, 2000, "3000,2000,3000,2000/max/0/default.jpg"},
		{"pct:90,90,20,20", "max", image.Rect(5400, 3600, 6000, 4000), 600, 400, "5400,3600,600,400/max/0/default.jpg"},
		{"0,0,100,100", "^200,", image.Rect(0, 0, 100, 100), 200, 200, "0,0,100,100/^200,200/0/default.jpg"},
		{"0,0,100,100", "^pct:300", image.Rect(0, 0, 100, 100), 300, 300, "0,0,100,100/^300,300/0/default.jpg"},
		{"0,0,100,100", "^max", image.Rect(0, 0, 100, 100), 3464, 3464, "0,0,100,100/^3464,3464/0/default.jpg"},
		{"0,0,100,50", "!200,200", image.Rect(0, 0, 100, 50), 100, 50, "0,0,100,50/max/0/default.jpg"},        // confined: never upscaled without ^
		{"0,0,100,50", "^!200,200", image.Rect(0, 0, 100, 50), 200, 100, "0,0,100,50/^200,100/0/default.jpg"}, // with ^ it grows to fit
	}
	for _, c := range cases {
		req, err := ParseRequest(c.region, c.size, "0", "default.jpg")
		if err != nil {
			t.Fatal(err)
		}
		p, err := req.Resolve(6000, 4000, lim)
		if err != nil {
			t.Errorf("%s/%s: %v", c.region, c.size, err)
			continue
		}
		if p.Rect != c.rect || p.Width != c.w || p.Height != c.h {
			t.Errorf("%s/%s: %v %d×%d, want %v %d×%d", c.region, c.size, p.Rect, p.Width, p.Height, c.rect, c.w, c.h)
		}
		if got := p.Canonical(6000, 4000); got != c.canonical {
			t.Errorf("%s/%s: canonical %s, want %s", c.region, c.size, got, c.canonical)
		}
	}
	badCases := []struct{ region, size string }{
		{"6000,0,10,10", "max"},      // starts outside
		{"0,4000,10,10", "max"},      // starts below
		{"pct:100,0,10,10", "max"},   // outside by percent
		{"full", "7000,"},            // larger than the region
		{"full", "pct:101"},          // larger by percent
		{"0,0,100,100", "101,100"},   // larger than a small region
		{"full", "^5001,"},           // beyond maxWidth
		{"full", "^4000,4000"},       // beyond maxArea
		{"full", "pct:0.001"},        // less than a pixel
		{"0,0,10,10", "^pct:100000"}, // absurd
	}
	for _, c := range badCases {
		req, err := ParseRequest(c.region, c.size, "0", "default.jpg")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := req.Resolve(6000, 4000, lim); status(err) != http.StatusBadRequest {
			t.Errorf("%s/%s: err %v, want a 400", c.region, c.size, err)
		}
	}
}

func TestTileFor(t *testing.T) {
	pyr := Pyramid{Width: 6000, Height: 4000, Levels: levelsFor(6000, 4000)}
	if pyr.Levels != 5 {
		t.Fatalf("levels %d", pyr.Levels)
	}
	cases := []struct {
		region, size, qf string
		k, col, row      int
		ok               bool
	}{
		{"0,0,512,512", "512,512", "default.jpg", 0, 0, 0, true},
		{"0,0,512,512", "512,", "default.jpg", 0, 0, 0, true},
		{"5632,3584,368,416", "368,416", "color.jpg", 0, 11, 7, true},
		{"2048,1024,1024,1024", "512,512", "default.jpg", 1, 2, 1, true},
		{"4096,0,1904,4000", "119,250", "default.jpg", 4, 0, 0, false}, // not on the grid of 8192 spans
		{"full", "375,250", "default.jpg", 4, 0, 0, true},
		{"full", "max", "default.jpg", 0, 0, 0, false},
		{"0,0,512,512", "512,512", "gray.jpg", 0, 0, 0, false},
		{"0,0,512,512", "512,512", "default.png", 0, 0, 0, false},
		{"0,0,512,512", "256,256", "default.jpg", 0, 0, 0, false},
		{"1,0,512,512", "512,512", "default.jpg", 0, 0, 0, false},
	}
	for _, c := range cases {
		req, err := ParseRequest(c.region, c.size, "0", c.qf)
		if err != nil {
			t.Fatal(err)
		}
		p, err := req.Resolve(6000, 4000, DefaultLimits)
		if err != nil {
			t.Fatal(c, err)
		}
		k, col, row, ok := tileFor(p, pyr)
		if ok != c.ok || (ok && (k != c.k || col != c.col || row != c.row)) {
			t.Errorf("%s/%s/%s: %d %d %d %v", c.region, c.size, c.qf, k, col, row, ok)
		}
	}
}

// FuzzParse checks that the parser never panics, that what it accepts resolves
// without panicking within the limits (themselves fuzzed, from one tile up), and that
// a canonical form parses back to the same plan.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"full/max/0/default.jpg", "square/^max/!90/gray.png", "0,0,512,512/512,/0/default.jpg",
		"pct:10,20,30,40/pct:50/180/bitonal.png", "10,10,5,5/^!100,100/!270/color.jpg", "full/full/0/default.jpg",
		"full/max/45/default.webp", "pct:1e3,0,1,1/max/0/default.jpg", "////", "full/,1/360/default.jpg",
		"full/^max/0/default.jpg", "full/^!65535,65535/0/default.png", "full/^pct:999999/0/default.jpg"} {
		f.Add(s, uint16(600), uint16(400), uint16(3000), uint16(3000), uint32(4_000_000))
	}
	f.Add("full/max/0/default.jpg", uint16(65535), uint16(65535), uint16(0), uint16(0), uint32(0))
	f.Fuzz(func(t *testing.T, path string, w, h, maxW, maxH uint16, maxArea uint32) {
		parts := strings.Split(path, "/")
		if len(parts) != 4 {
			return
		}
		req, err := ParseRequest(parts[0], parts[1], parts[2], parts[3])
		if err != nil {
			if s := status(err); s != 400 && s != 501 {
				t.Fatalf("%q: status %d", path, s)
			}
			return
		}
		if w == 0 || h == 0 {
			return
		}
		lim := Limits{MaxWidth: max(TileSize, int(maxW)), MaxHeight: max(TileSize, int(maxH)), MaxArea: max(TileSize*TileSize, int64(maxArea))}
		p, err := req.Resolve(int(w), int(h), lim)
		if err != nil {
			if status(err) != 400 {
				t.Fatalf("%q on %d×%d: %v", path, w, h, err)
			}
			return
		}
		if p.Rect.Empty() || !p.Rect.In(image.Rect(0, 0, int(w), int(h))) || p.Width < 1 || p.Height < 1 ||
			p.Width > lim.MaxWidth || p.Height > lim.MaxHeight || int64(p.Width)*int64(p.Height) > lim.MaxArea {
			t.Fatalf("%q on %d×%d: plan %+v", path, w, h, p)
		}
		c := strings.Split(p.Canonical(int(w), int(h)), "/")
		req2, err := ParseRequest(c[0], c[1], c[2], c[3])
		if err != nil {
			t.Fatalf("canonical %v of %q: %v", c, path, err)
		}
		p2, err := req2.Resolve(int(w), int(h), lim)
		if err != nil || p2.Rect != p.Rect || p2.Width != p.Width || p2.Height != p.Height {
			t.Fatalf("canonical %v of %q: %+v %v, want %+v", c, path, p2, err, p)
		}
	})
}
