package iiif

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/draw"
	"image/jpeg"
	"image/png"
	"io"
	"math"
	"os"
	"sort"
)

// tileFor reports the pre-cut tile a plan asks for, if it asks for exactly one: the
// tile's region of the grid at some scale factor, at that level's size, unrotated,
// unmirrored, in colour, as JPEG.
func tileFor(p Plan, pyr Pyramid) (k, col, row int, ok bool) {
	req := p.Request
	if req.Rotation != 0 || req.Mirror || req.Format != "jpg" || (req.Quality != QualityDefault && req.Quality != QualityColor) {
		return 0, 0, 0, false
	}
	for k = 0; k < pyr.Levels; k++ {
		sf := 1 << k
		span := TileSize * sf
		r := p.Rect
		if r.Min.X%span != 0 || r.Min.Y%span != 0 {
			continue
		}
		col, row = r.Min.X/span, r.Min.Y/span
		if r.Max.X != min(r.Min.X+span, pyr.Width) || r.Max.Y != min(r.Min.Y+span, pyr.Height) {
			continue
		}
		if p.Width == ceilDiv(r.Dx(), sf) && p.Height == ceilDiv(r.Dy(), sf) {
			return k, col, row, true
		}
	}
	return 0, 0, 0, false
}

// renderStats counts what one render decodes and the pixel buffers it holds, so that
// tests can check the memory budget (docs/iiif.md, "Limits") without timing anything.
type renderStats struct {
	tiles  int   // tiles decoded
	pixels int64 // pixels decoded
	held   int64 // bytes of pixel buffers held now
	peak   int64 // most bytes of pixel buffers held at once
}

func (st *renderStats) hold(n int64) {
	if st == nil {
		return
	}
	st.held += n
	st.peak = max(st.peak, st.held)
}

func (st *renderStats) free(n int64) {
	if st != nil {
		st.held -= n
	}
}

// renderLevel is the pyramid level a plan is made from: the smallest one still at
// least as large as the answer (level 0 when upscaling).
func renderLevel(pyr Pyramid, p Plan) int {
	k := 0
	for k+1 < pyr.Levels {
		sf := float64(int(1) << (k + 1))
		if float64(p.Rect.Dx())/sf < float64(p.Width) || float64(p.Rect.Dy())/sf < float64(p.Height) {
			break
		}
		k++
	}
	return k
}

// render makes the image a plan asks for from the pyramid in dir: from the nearest
// level (renderLevel), reading only the tiles that meet the region, a row of tiles at
// a time, scaling each tile into the answer as it is decoded (resample). It never
// holds the level, let alone the scan, whole.
func render(dir string, pyr Pyramid, p Plan, st *renderStats) (image.Image, error) {
	return renderFrom(dirTiles(dir), pyr, p, st)
}

// renderFrom is render from the tiles src reads.
func renderFrom(src tileSource, pyr Pyramid, p Plan, st *renderStats) (image.Image, error) {
	k := renderLevel(pyr, p)
	sf := 1 << k
	lw, lh := pyr.LevelSize(k)
	lr := image.Rect(p.Rect.Min.X/sf, p.Rect.Min.Y/sf, min(ceilDiv(p.Rect.Max.X, sf), lw), min(ceilDiv(p.Rect.Max.Y, sf), lh))
	if lr.Empty() {
		return nil, fmt.Errorf("empty region at level %d", k)
	}
	out := image.NewRGBA(image.Rect(0, 0, p.Width, p.Height))
	st.hold(int64(len(out.Pix)))
	if err := resample(out, src, k, lr, st); err != nil {
		return nil, err
	}
	if p.Request.Mirror {
		mirror(out)
	}
	if p.Request.Rotation != 0 {
		turned := rotate(out, p.Request.Rotation)
		st.hold(int64(len(turned.Pix)))
		st.free(int64(len(out.Pix)))
		out = turned
	}
	switch p.Request.Quality {
	case QualityGray, QualityBitonal:
		g := gray(out, p.Request.Quality == QualityBitonal)
		st.hold(int64(len(g.Pix)))
		st.free(int64(len(out.Pix)))
		return g, nil
	}
	return out, nil
}

// resample fills out with the region lr of pyramid level k, scaled with a triangle
// (bilinear) filter widened to the scale when shrinking. Tiles are read a row of tiles
// at a time, and each tile is scaled horizontally into rows of the answer's width as
// soon as it is decoded; each answer row is made as soon as the last of those rows it
// needs is complete. So what it holds besides the answer is bounded by the answer's
// width (a row of tiles' height of scaled rows), not by the level's.
func resample(out *image.RGBA, src tileSource, k int, lr image.Rectangle, st *renderStats) error {
	sw, sh := lr.Dx(), lr.Dy()
	ow, oh := out.Rect.Dx(), out.Rect.Dy()
	if sw == ow && sh == oh {
		// Same size: the tiles are copied straight into the answer.
		return eachTile(src, k, lr, st, nil, func(t image.Image, at image.Rectangle, sp image.Point) {
			draw.Draw(out, at, t, sp, draw.Src)
		}, nil)
	}
	xs, ys := contributions(sw, ow), contributions(sh, oh)
	taps := 1
	for _, c := range ys {
		taps = max(taps, len(c.w))
	}
	// Rows of the answer's width, scaled horizontally, by source row modulo n: a row of
	// tiles and the rows above it that answer rows still to be made may need. Tiles
	// are JPEG, so opaque: only red, green and blue are kept.
	n := min(TileSize, sh) + taps
	ring := make([][]float32, n)
	for i := range ring {
		ring[i] = make([]float32, 3*ow)
	}
	st.hold(int64(12 * ow * n))
	defer st.free(int64(12 * ow * n))
	scratch := image.NewRGBA(image.Rect(0, 0, TileSize, TileSize))
	st.hold(int64(len(scratch.Pix)))
	defer st.free(int64(len(scratch.Pix)))
	rows := make([][]float32, 0, taps)
	next := 0 // the next answer row to make
	begin := func(y0, y1 int) {
		for sy := y0; sy < y1; sy++ {
			clear(ring[sy%n])
		}
	}
	tile := func(t image.Image, at image.Rectangle, sp image.Point) {
		draw.Draw(scratch, image.Rect(0, 0, at.Dx(), at.Dy()), t, sp, draw.Src)
		// The answer's columns that read any of this tile's.
		x0 := sort.Search(ow, func(x int) bool { return xs[x].start+len(xs[x].w) > at.Min.X })
		for y := 0; y < at.Dy(); y++ {
			dst := ring[(at.Min.Y+y)%n]
			src := scratch.Pix[y*scratch.Stride : y*scratch.Stride+4*at.Dx()]
			for x := x0; x < ow && xs[x].start < at.Max.X; x++ {
				c := xs[x]
				j0, j1 := max(0, at.Min.X-c.start), min(len(c.w), at.Max.X-c.start)
				var r, g, b float32
				for j := j0; j < j1; j++ {
					p := src[4*(c.start+j-at.Min.X):]
					w := c.w[j]
					r += w * float32(p[0])
					g += w * float32(p[1])
					b += w * float32(p[2])
				}
				dst[3*x] += r
				dst[3*x+1] += g
				dst[3*x+2] += b
			}
		}
	}
	end := func(y0, y1 int) {
		for next < oh && ys[next].start+len(ys[next].w) <= y1 {
			c := ys[next]
			rows = rows[:0]
			for j := range c.w {
				rows = append(rows, ring[(c.start+j)%n])
			}
			o := out.Pix[next*out.Stride : next*out.Stride+4*ow]
			for x := 0; x < ow; x++ {
				var r, g, b float32
				for j, w := range c.w {
					p := rows[j][3*x : 3*x+3]
					r += w * p[0]
					g += w * p[1]
					b += w * p[2]
				}
				o[4*x], o[4*x+1], o[4*x+2], o[4*x+3] = clampByte(r), clampByte(g), clampByte(b), 255
			}
			next++
		}
	}
	return eachTile(src, k, lr, st, begin, tile, end)
}

// eachTile decodes the tiles of level k that meet lr, a row of tiles at a time, left
// to right, and hands each to tile with the part of it inside lr (at, relative to
// lr.Min) and where that part starts in the tile's own bounds (sp). begin and end, when
// not nil, are called around each row of tiles with the rows of lr (relative to
// lr.Min) it covers.
func eachTile(src tileSource, k int, lr image.Rectangle, st *renderStats, begin func(y0, y1 int),
	tile func(t image.Image, at image.Rectangle, sp image.Point), end func(y0, y1 int)) error {
	for row := lr.Min.Y / TileSize; row <= (lr.Max.Y-1)/TileSize; row++ {
		y0 := max(row*TileSize, lr.Min.Y) - lr.Min.Y
		y1 := min((row+1)*TileSize, lr.Max.Y) - lr.Min.Y
		if begin != nil {
			begin(y0, y1)
		}
		for col := lr.Min.X / TileSize; col <= (lr.Max.X-1)/TileSize; col++ {
			t, err := src.tile(k, col, row)
			if err != nil {
				return err
			}
			px := int64(t.Bounds().Dx() * t.Bounds().Dy())
			if st != nil {
				st.tiles++
				st.pixels += px
			}
			st.hold(2 * px) // a decoded JPEG tile: 1 to 3 bytes a pixel
			origin := image.Pt(col*TileSize, row*TileSize)
			tr := t.Bounds().Add(origin).Intersect(lr)
			tile(t, tr.Sub(lr.Min), tr.Min.Sub(origin).Add(t.Bounds().Min))
			st.free(2 * px)
		}
		if end != nil {
			end(y0, y1)
		}
	}
	return nil
}

// contribution is the source pixels one output pixel is made of: start and weights.
type contribution struct {
	start int
	w     []float32
}

// contributions are the weights of a triangle filter mapping in pixels onto out,
// widened to the scale when shrinking, cut at the edges and normalised.
func contributions(in, out int) []contribution {
	scale := float64(in) / float64(out)
	r := max(1, scale)
	cs := make([]contribution, out)
	for o := range cs {
		c := (float64(o)+0.5)*scale - 0.5
		lo := max(0, int(math.Ceil(c-r)))
		hi := min(in-1, int(math.Floor(c+r)))
		ws := make([]float32, 0, hi-lo+1)
		var sum float64
		for j := lo; j <= hi; j++ {
			w := max(0, 1-math.Abs(float64(j)-c)/r)
			ws = append(ws, float32(w))
			sum += w
		}
		for len(ws) > 1 && ws[0] == 0 {
			ws, lo = ws[1:], lo+1
		}
		for len(ws) > 1 && ws[len(ws)-1] == 0 {
			ws = ws[:len(ws)-1]
		}
		if sum == 0 {
			lo, ws, sum = min(in-1, max(0, int(math.Round(c)))), []float32{1}, 1
		}
		for i := range ws {
			ws[i] /= float32(sum)
		}
		cs[o] = contribution{lo, ws}
	}
	return cs
}

func clampByte(v float32) uint8 {
	switch {
	case v <= 0:
		return 0
	case v >= 255:
		return 255
	}
	return uint8(v + 0.5)
}

// tileSource reads the tiles of one pyramid.
type tileSource interface {
	tile(k, col, row int) (image.Image, error)
}

// dirTiles reads a pyramid from a local folder (CutTiles' output, an import's staging
// folder).
type dirTiles string

func (d dirTiles) tile(k, col, row int) (image.Image, error) {
	return readTile(tilePath(string(d), k, col, row))
}

// storeTiles reads a pyramid from the service's store, through its memory of recent
// tiles.
type storeTiles struct {
	ctx    context.Context
	s      *Service
	prefix string // tilesKey
}

func (t storeTiles) tile(k, col, row int) (image.Image, error) {
	b, err := t.s.tileBytes(t.ctx, t.prefix+tileName(k, col, row))
	if err != nil {
		return nil, err
	}
	return jpeg.Decode(bytes.NewReader(b))
}

func readTile(path string) (image.Image, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return jpeg.Decode(bytes.NewReader(b))
}

// mirror flips an image left to right in place.
func mirror(m *image.RGBA) {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	for y := 0; y < h; y++ {
		row := m.Pix[y*m.Stride : y*m.Stride+4*w]
		for i, j := 0, w-1; i < j; i, j = i+1, j-1 {
			a, b := row[4*i:4*i+4], row[4*j:4*j+4]
			for c := 0; c < 4; c++ {
				a[c], b[c] = b[c], a[c]
			}
		}
	}
}

// rotate turns an image clockwise by 90, 180 or 270 degrees.
func rotate(m *image.RGBA, deg int) *image.RGBA {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	var out *image.RGBA
	if deg == 180 {
		out = image.NewRGBA(image.Rect(0, 0, w, h))
	} else {
		out = image.NewRGBA(image.Rect(0, 0, h, w))
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var nx, ny int
			switch deg {
			case 90:
				nx, ny = h-1-y, x
			case 180:
				nx, ny = w-1-x, h-1-y
			case 270:
				nx, ny = y, w-1-x
			}
			copy(out.Pix[ny*out.Stride+4*nx:ny*out.Stride+4*nx+4], m.Pix[y*m.Stride+4*x:y*m.Stride+4*x+4])
		}
	}
	return out
}

// gray converts to luma (the weights of color.GrayModel); bitonal thresholds it at
// half.
func gray(m *image.RGBA, bitonal bool) *image.Gray {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	out := image.NewGray(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		src := m.Pix[y*m.Stride:]
		dst := out.Pix[y*out.Stride:]
		for x := 0; x < w; x++ {
			r, g, b := uint32(src[4*x]), uint32(src[4*x+1]), uint32(src[4*x+2])
			l := uint8((19595*r + 38470*g + 7471*b + 1<<15) >> 16)
			if bitonal {
				if l >= 128 {
					l = 255
				} else {
					l = 0
				}
			}
			dst[x] = l
		}
	}
	return out
}

// encodeTo writes an image as JPEG or PNG. Both encoders write as they go, so the
// answer is streamed to its file rather than built in memory.
func encodeTo(w io.Writer, img image.Image, format string) error {
	if format == "png" {
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		return enc.Encode(w, img)
	}
	return jpeg.Encode(w, img, &jpeg.Options{Quality: tileQuality})
}

func contentType(format string) string {
	if format == "png" {
		return "image/png"
	}
	return "image/jpeg"
}
