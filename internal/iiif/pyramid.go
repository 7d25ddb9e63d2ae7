package iiif

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
)

// TileSize is the width and height of pre-cut tiles.
const TileSize = 512

// tileQuality is the JPEG quality of tiles and JPEG derivatives.
const tileQuality = 85

// Pyramid describes the tiles cut from one scan: level k (0-based) has scale factor
// 2^k and is ceil(Width/2^k) × ceil(Height/2^k) pixels, cut into TileSize squares.
type Pyramid struct {
	Width, Height int
	Levels        int
}

// levelsFor is the number of levels down to the first one that fits one tile.
func levelsFor(w, h int) int {
	n := 1
	for max(ceilDiv(w, 1<<(n-1)), ceilDiv(h, 1<<(n-1))) > TileSize {
		n++
	}
	return n
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// LevelSize is the size of level k.
func (p Pyramid) LevelSize(k int) (int, int) {
	return ceilDiv(p.Width, 1<<k), ceilDiv(p.Height, 1<<k)
}

// ScaleFactors lists 1, 2, 4 … for info.json.
func (p Pyramid) ScaleFactors() []int {
	out := make([]int, p.Levels)
	for k := range out {
		out[k] = 1 << k
	}
	return out
}

// tilePath is where tile (col, row) of level k lives under dir.
func tilePath(dir string, k, col, row int) string {
	return filepath.Join(dir, filepath.FromSlash(tileName(k, col, row)))
}

// tileName is tilePath relative to the pyramid's folder, with slashes: the end of the
// tile's key in the store.
func tileName(k, col, row int) string {
	return strconv.Itoa(1<<k) + "/" + strconv.Itoa(col) + "_" + strconv.Itoa(row) + ".jpg"
}

// CutTiles writes the tile pyramid of img into dir, which must not exist yet. Level 0
// is cut from img itself; each further level is the one before halved by averaging
// 2 × 2 pixels, so the scan is decoded once, before this call.
func CutTiles(img image.Image, dir string) (Pyramid, error) {
	img = tileable(img)
	b := img.Bounds()
	p := Pyramid{Width: b.Dx(), Height: b.Dy()}
	if p.Width < 1 || p.Height < 1 {
		return p, errors.New("the image is empty")
	}
	p.Levels = levelsFor(p.Width, p.Height)
	for k := 0; k < p.Levels; k++ {
		if err := os.MkdirAll(filepath.Join(dir, strconv.Itoa(1<<k)), 0o755); err != nil {
			return p, err
		}
	}
	cur := img
	for k := 0; k < p.Levels; k++ {
		if err := cutLevel(cur, dir, k); err != nil {
			return p, err
		}
		if k+1 < p.Levels {
			cur = halve(cur)
		}
	}
	return p, nil
}

// tileable converts images the JPEG encoder and halve have no fast path for to RGBA.
func tileable(img image.Image) image.Image {
	switch m := img.(type) {
	case *image.YCbCr, *image.RGBA, *image.Gray:
		return normalise(m)
	}
	b := img.Bounds()
	if _, ok := img.ColorModel().(color.Palette); !ok && (img.ColorModel() == color.GrayModel || img.ColorModel() == color.Gray16Model) {
		g := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
		draw.Draw(g, g.Bounds(), img, b.Min, draw.Src)
		return g
	}
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(out, out.Bounds(), img, b.Min, draw.Src)
	return out
}

// normalise moves an image's origin to 0,0 without copying pixels.
func normalise(img image.Image) image.Image {
	if img.Bounds().Min == (image.Point{}) {
		return img
	}
	switch m := img.(type) {
	case *image.RGBA:
		c := *m
		c.Rect = c.Rect.Sub(c.Rect.Min)
		return &c
	case *image.Gray:
		c := *m
		c.Rect = c.Rect.Sub(c.Rect.Min)
		return &c
	}
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(out, out.Bounds(), img, b.Min, draw.Src)
	return out
}

type subImager interface {
	SubImage(r image.Rectangle) image.Image
}

// cutLevel encodes every tile of one level, on as many goroutines as there are CPUs.
func cutLevel(img image.Image, dir string, k int) error {
	b := img.Bounds()
	cols, rows := ceilDiv(b.Dx(), TileSize), ceilDiv(b.Dy(), TileSize)
	jobs := make(chan image.Point)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), cols*rows) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range jobs {
				r := image.Rect(t.X*TileSize, t.Y*TileSize, min((t.X+1)*TileSize, b.Dx()), min((t.Y+1)*TileSize, b.Dy()))
				if err := writeJPEG(tilePath(dir, k, t.X, t.Y), img.(subImager).SubImage(r)); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		}()
	}
	for row := 0; row < rows; row++ {
		for col := 0; col < cols; col++ {
			jobs <- image.Pt(col, row)
		}
	}
	close(jobs)
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
}

func writeJPEG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 64<<10)
	err = jpeg.Encode(w, img, &jpeg.Options{Quality: tileQuality})
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write tile %s: %w", path, err)
	}
	return nil
}

// halve averages 2 × 2 blocks (edges: the pixels there are). Grey stays grey; colour
// becomes RGBA.
func halve(img image.Image) image.Image {
	b := img.Bounds()
	w, h := ceilDiv(b.Dx(), 2), ceilDiv(b.Dy(), 2)
	switch m := img.(type) {
	case *image.Gray:
		out := image.NewGray(image.Rect(0, 0, w, h))
		parallelRows(h, func(y0, y1 int) {
			for y := y0; y < y1; y++ {
				sy0, sy1 := 2*y, min(2*y+1, b.Dy()-1)
				r0 := m.Pix[sy0*m.Stride:]
				r1 := m.Pix[sy1*m.Stride:]
				o := out.Pix[y*out.Stride:]
				for x := 0; x < w; x++ {
					sx0, sx1 := 2*x, min(2*x+1, b.Dx()-1)
					o[x] = uint8((int(r0[sx0]) + int(r0[sx1]) + int(r1[sx0]) + int(r1[sx1]) + 2) >> 2)
				}
			}
		})
		return out
	case *image.RGBA:
		out := image.NewRGBA(image.Rect(0, 0, w, h))
		parallelRows(h, func(y0, y1 int) {
			for y := y0; y < y1; y++ {
				sy0, sy1 := 2*y, min(2*y+1, b.Dy()-1)
				r0 := m.Pix[sy0*m.Stride:]
				r1 := m.Pix[sy1*m.Stride:]
				o := out.Pix[y*out.Stride:]
				for x := 0; x < w; x++ {
					a, c := 8*x, 4*min(2*x+1, b.Dx()-1)
					for ch := 0; ch < 4; ch++ {
						o[4*x+ch] = uint8((int(r0[a+ch]) + int(r0[c+ch]) + int(r1[a+ch]) + int(r1[c+ch]) + 2) >> 2)
					}
				}
			}
		})
		return out
	case *image.YCbCr:
		out := image.NewRGBA(image.Rect(0, 0, w, h))
		min0 := m.Rect.Min
		parallelRows(h, func(y0, y1 int) {
			for y := y0; y < y1; y++ {
				sy0, sy1 := 2*y, min(2*y+1, b.Dy()-1)
				r0 := m.Y[sy0*m.YStride:]
				r1 := m.Y[sy1*m.YStride:]
				o := out.Pix[y*out.Stride:]
				for x := 0; x < w; x++ {
					sx0, sx1 := 2*x, min(2*x+1, b.Dx()-1)
					yy := uint8((int(r0[sx0]) + int(r0[sx1]) + int(r1[sx0]) + int(r1[sx1]) + 2) >> 2)
					ci := m.COffset(min0.X+sx0, min0.Y+sy0)
					r, g, bl := color.YCbCrToRGB(yy, m.Cb[ci], m.Cr[ci])
					o[4*x], o[4*x+1], o[4*x+2], o[4*x+3] = r, g, bl, 255
				}
			}
		})
		return out
	}
	panic("halve: unexpected image type") // tileable guarantees one of the above
}

// parallelRows splits [0, h) among the CPUs.
func parallelRows(h int, fn func(y0, y1 int)) {
	n := runtime.GOMAXPROCS(0)
	if n < 2 || h < 64 {
		fn(0, h)
		return
	}
	var wg sync.WaitGroup
	step := ceilDiv(h, n)
	for y := 0; y < h; y += step {
		wg.Add(1)
		go func(y0, y1 int) {
			defer wg.Done()
			fn(y0, y1)
		}(y, min(y+step, h))
	}
	wg.Wait()
}
