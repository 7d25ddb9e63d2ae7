package iiif

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var (
	red   = color.RGBA{220, 30, 30, 255}
	green = color.RGBA{30, 200, 40, 255}
	blue  = color.RGBA{30, 40, 210, 255}
	white = color.RGBA{250, 250, 250, 255}
)

// quadrants is a w × h image: red top left, green top right, blue bottom left, white
// bottom right.
func quadrants(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := red
			switch {
			case x >= w/2 && y < h/2:
				c = green
			case x < w/2 && y >= h/2:
				c = blue
			case x >= w/2 && y >= h/2:
				c = white
			}
			m.SetRGBA(x, y, c)
		}
	}
	return m
}

// near reports whether a pixel is within JPEG's error of a colour.
func near(c color.Color, want color.RGBA) bool {
	r, g, b, _ := c.RGBA()
	d := func(a uint32, b uint8) bool { x := int(a>>8) - int(b); return x > -40 && x < 40 }
	return d(r, want.R) && d(g, want.G) && d(b, want.B)
}

func cutQuadrants(t *testing.T, img image.Image) (string, Pyramid) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tiles")
	pyr, err := CutTiles(img, dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, pyr
}

func plan(t *testing.T, pyr Pyramid, path string) Plan {
	t.Helper()
	p := strings.Split(path, "/")
	req, err := ParseRequest(p[0], p[1], p[2], p[3])
	if err != nil {
		t.Fatal(err)
	}
	pl, err := req.Resolve(pyr.Width, pyr.Height, DefaultLimits)
	if err != nil {
		t.Fatal(path, err)
	}
	return pl
}

// TestRenderPixels checks that region, size, rotation, mirroring and quality give the
// right pixels, on a 1200 × 800 image (three pyramid levels).
func TestRenderPixels(t *testing.T) {
	dir, pyr := cutQuadrants(t, quadrants(1200, 800))
	if pyr.Levels != 3 {
		t.Fatalf("levels %d, want 3", pyr.Levels)
	}
	type probe struct {
		x, y int
		want color.RGBA
	}
	cases := []struct {
		path   string
		w, h   int
		probes []probe
	}{
		{"full/max/0/default.jpg", 1200, 800, []probe{{100, 100, red}, {1100, 100, green}, {100, 700, blue}, {1100, 700, white}}},
		{"600,0,600,400/max/0/default.jpg", 600, 400, []probe{{10, 10, green}, {590, 390, green}}},
		{"pct:0,50,50,50/max/0/default.jpg", 600, 400, []probe{{10, 10, blue}, {590, 390, blue}}},
		{"square/max/0/default.jpg", 800, 800, []probe{{50, 50, red}, {750, 50, green}, {50, 750, blue}, {750, 750, white}}},
		{"full/300,/0/default.jpg", 300, 200, []probe{{20, 20, red}, {280, 20, green}, {20, 180, blue}, {280, 180, white}}},
		{"full/!100,100/0/color.jpg", 100, 67, []probe{{10, 10, red}, {90, 10, green}, {10, 60, blue}, {90, 60, white}}},
		{"full/300,100/0/default.jpg", 300, 100, []probe{{20, 20, red}, {280, 80, white}}}, // distorted
		{"500,300,200,200/^400,/0/default.jpg", 400, 400, []probe{{50, 50, red}, {350, 50, green}, {50, 350, blue}, {350, 350, white}}},
		{"full/300,/90/default.jpg", 200, 300, []probe{{20, 20, blue}, {180, 20, red}, {20, 280, white}, {180, 280, green}}},
		{"full/300,/180/default.jpg", 300, 200, []probe{{20, 20, white}, {280, 20, blue}, {20, 180, green}, {280, 180, red}}},
		{"full/300,/270/default.jpg", 200, 300, []probe{{20, 20, green}, {180, 20, white}, {20, 280, red}, {180, 280, blue}}},
		{"full/300,/!0/default.jpg", 300, 200, []probe{{20, 20, green}, {280, 20, red}, {20, 180, white}, {280, 180, blue}}},
		{"full/300,/!90/default.jpg", 200, 300, []probe{{20, 20, white}, {180, 20, green}, {20, 280, blue}, {180, 280, red}}},
	}
	for _, c := range cases {
		img, err := render(dir, pyr, plan(t, pyr, c.path), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if b := img.Bounds(); b.Dx() != c.w || b.Dy() != c.h {
			t.Errorf("%s: %d×%d, want %d×%d", c.path, b.Dx(), b.Dy(), c.w, c.h)
			continue
		}
		for _, p := range c.probes {
			if got := img.At(p.x, p.y); !near(got, p.want) {
				t.Errorf("%s: pixel %d,%d is %v, want about %v", c.path, p.x, p.y, got, p.want)
			}
		}
	}
	// Gray and bitonal: luma of each quadrant, then thresholded at half.
	grayWant := map[color.RGBA]uint8{red: 85, green: 135, blue: 48, white: 250}
	bitWant := map[color.RGBA]uint8{red: 0, green: 255, blue: 0, white: 255}
	for _, q := range []string{"gray", "bitonal"} {
		img, err := render(dir, pyr, plan(t, pyr, "full/600,/0/"+q+".png"), nil)
		if err != nil {
			t.Fatal(err)
		}
		g, ok := img.(*image.Gray)
		if !ok {
			t.Fatalf("%s: %T, want *image.Gray", q, img)
		}
		for _, p := range []struct {
			x, y int
			c    color.RGBA
		}{{50, 50, red}, {550, 50, green}, {50, 350, blue}, {550, 350, white}} {
			got := g.GrayAt(p.x, p.y).Y
			want := grayWant[p.c]
			if q == "bitonal" {
				want = bitWant[p.c]
				if got != want {
					t.Errorf("bitonal %d,%d: %d, want %d", p.x, p.y, got, want)
				}
			} else if d := int(got) - int(want); d < -12 || d > 12 {
				t.Errorf("gray %d,%d: %d, want about %d", p.x, p.y, got, want)
			}
		}
	}
	// Encoded answers decode to the same size in the asked format.
	for _, f := range []string{"jpg", "png"} {
		pl := plan(t, pyr, "full/150,/0/default."+f)
		img, err := render(dir, pyr, pl, nil)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := encodeTo(&b, img, f); err != nil {
			t.Fatal(err)
		}
		cfg, format, err := image.DecodeConfig(&b)
		if err != nil || cfg.Width != 150 || cfg.Height != 100 || format != map[string]string{"jpg": "jpeg", "png": "png"}[f] {
			t.Errorf("%s: %v %s %v", f, cfg, format, err)
		}
	}
}

// TestCutTiles checks the pyramid's files and that each level keeps the picture, for
// colour JPEG (YCbCr), grey and paletted sources.
func TestCutTiles(t *testing.T) {
	src := quadrants(1100, 700)
	var jb bytes.Buffer
	if err := jpeg.Encode(&jb, src, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	ycc, err := jpeg.Decode(&jb)
	if err != nil {
		t.Fatal(err)
	}
	grey := image.NewGray(src.Bounds())
	pal := image.NewPaletted(src.Bounds(), color.Palette{red, green, blue, white})
	for y := 0; y < 700; y++ {
		for x := 0; x < 1100; x++ {
			grey.Set(x, y, src.At(x, y))
			pal.Set(x, y, src.At(x, y))
		}
	}
	for name, img := range map[string]image.Image{"ycbcr": ycc, "gray": grey, "paletted": pal, "rgba": src} {
		dir, pyr := cutQuadrants(t, img)
		if pyr.Width != 1100 || pyr.Height != 700 || pyr.Levels != 3 {
			t.Fatalf("%s: %+v", name, pyr)
		}
		// Level 0: 3 × 2 tiles, the last 76 × 188; level 2: one 275 × 175 tile.
		for _, c := range []struct{ k, col, row, w, h int }{{0, 0, 0, 512, 512}, {0, 2, 1, 76, 188}, {1, 1, 0, 38, 350}, {2, 0, 0, 275, 175}} {
			f, err := os.Open(tilePath(dir, c.k, c.col, c.row))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			cfg, err := jpeg.DecodeConfig(f)
			f.Close()
			if err != nil || cfg.Width != c.w || cfg.Height != c.h {
				t.Errorf("%s tile %+v: %d×%d %v", name, c, cfg.Width, cfg.Height, err)
			}
		}
		if _, err := os.Stat(tilePath(dir, 0, 3, 0)); err == nil {
			t.Errorf("%s: a tile beyond the image", name)
		}
		top, err := readTile(tilePath(dir, 2, 0, 0))
		if err != nil {
			t.Fatal(err)
		}
		if name != "gray" && (!near(top.At(20, 20), red) || !near(top.At(260, 160), white)) {
			t.Errorf("%s: smallest level %v %v", name, top.At(20, 20), top.At(260, 160))
		}
	}
	// A PNG round trip of a derivative is lossless from the tiles.
	var pb bytes.Buffer
	if err := png.Encode(&pb, src); err != nil {
		t.Fatal(err)
	}
	if _, err := decodeScan(pb.Bytes()); err != nil {
		t.Fatal(err)
	}
	if _, err := decodeScan([]byte("not an image")); err == nil {
		t.Error("decodeScan accepted text")
	}
}
