package iiif

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"image/jpeg"
	"image/png"
	"os"

	xdraw "golang.org/x/image/draw"
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

// render makes the image a plan asks for from the pyramid in dir: it reads the tiles
// of the smallest level still at least as large as the answer, so it never decodes
// more than about four times the answer's pixels (plus the tiles' margins).
func render(dir string, pyr Pyramid, p Plan) (image.Image, error) {
	k := 0
	for k+1 < pyr.Levels {
		sf := float64(int(1) << (k + 1))
		if float64(p.Rect.Dx())/sf < float64(p.Width) || float64(p.Rect.Dy())/sf < float64(p.Height) {
			break
		}
		k++
	}
	sf := 1 << k
	lw, lh := pyr.LevelSize(k)
	lr := image.Rect(p.Rect.Min.X/sf, p.Rect.Min.Y/sf, min(ceilDiv(p.Rect.Max.X, sf), lw), min(ceilDiv(p.Rect.Max.Y, sf), lh))
	if lr.Empty() {
		return nil, fmt.Errorf("empty region at level %d", k)
	}
	canvas := image.NewRGBA(image.Rect(0, 0, lr.Dx(), lr.Dy()))
	for row := lr.Min.Y / TileSize; row <= (lr.Max.Y-1)/TileSize; row++ {
		for col := lr.Min.X / TileSize; col <= (lr.Max.X-1)/TileSize; col++ {
			t, err := readTile(tilePath(dir, k, col, row))
			if err != nil {
				return nil, err
			}
			origin := image.Pt(col*TileSize, row*TileSize)
			// The part of the tile inside the level region, in canvas coordinates.
			tr := t.Bounds().Add(origin).Intersect(lr)
			draw.Draw(canvas, tr.Sub(lr.Min), t, tr.Min.Sub(origin).Add(t.Bounds().Min), draw.Src)
		}
	}
	var out *image.RGBA
	if canvas.Bounds().Dx() == p.Width && canvas.Bounds().Dy() == p.Height {
		out = canvas
	} else {
		out = image.NewRGBA(image.Rect(0, 0, p.Width, p.Height))
		// The level was chosen so that this scales down by less than 2 (or up): bilinear
		// is smooth enough there, and several times faster than Catmull-Rom.
		xdraw.BiLinear.Scale(out, out.Bounds(), canvas, canvas.Bounds(), xdraw.Src, nil)
	}
	if p.Request.Mirror {
		mirror(out)
	}
	if p.Request.Rotation != 0 {
		out = rotate(out, p.Request.Rotation)
	}
	switch p.Request.Quality {
	case QualityGray:
		return gray(out, false), nil
	case QualityBitonal:
		return gray(out, true), nil
	}
	return out, nil
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

// encode writes an image as JPEG or PNG.
func encode(img image.Image, format string) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	switch format {
	case "png":
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		err = enc.Encode(&buf, img)
	default:
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: tileQuality})
	}
	return buf.Bytes(), err
}

func contentType(format string) string {
	if format == "png" {
		return "image/png"
	}
	return "image/jpeg"
}
