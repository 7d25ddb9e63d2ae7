package iiif

import (
	"fmt"
	"image"
	"math"
	"net/http"
	"strconv"
	"strings"
)

// Error is a IIIF error: an HTTP status and a one-line plain-text message.
type Error struct {
	Status  int
	Message string
}

func (e *Error) Error() string { return e.Message }

func badRequest(format string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Message: fmt.Sprintf(format, args...)}
}

func notImplemented(format string, args ...any) *Error {
	return &Error{Status: http.StatusNotImplemented, Message: fmt.Sprintf(format, args...)}
}

// RegionKind says how a region was given.
type RegionKind uint8

const (
	RegionFull RegionKind = iota
	RegionSquare
	RegionPixels
	RegionPercent
)

// Region is a parsed region parameter. X, Y, W, H are pixels (RegionPixels) or
// percentages (RegionPercent).
type Region struct {
	Kind       RegionKind
	X, Y, W, H float64
}

// SizeKind says how a size was given.
type SizeKind uint8

const (
	SizeMax      SizeKind = iota // max
	SizeWidth                    // w,
	SizeHeight                   // ,h
	SizePercent                  // pct:n
	SizeExact                    // w,h
	SizeConfined                 // !w,h
)

// Size is a parsed size parameter.
type Size struct {
	Kind    SizeKind
	Upscale bool // the ^ prefix
	W, H    int
	Percent float64
}

// Quality values.
const (
	QualityDefault = "default"
	QualityColor   = "color"
	QualityGray    = "gray"
	QualityBitonal = "bitonal"
)

// Request is an image request's parameters, parsed but not yet applied to an image.
type Request struct {
	Region   Region
	Size     Size
	Mirror   bool
	Rotation int // 0, 90, 180 or 270
	Quality  string
	Format   string // jpg or png
}

// Limits are the server's maxWidth, maxHeight and maxArea.
type Limits struct {
	MaxWidth, MaxHeight int
	MaxArea             int64
}

// DefaultLimits are the limits info.json states unless settings change them
// (LINEAGE_IIIF_MAX_WIDTH, _MAX_HEIGHT, _MAX_AREA): 4 megapixels is more than a
// screen shows and keeps one render's memory under 65 MB (docs/iiif.md, "Limits");
// anything larger is read as tiles.
var DefaultLimits = Limits{MaxWidth: 4096, MaxHeight: 4096, MaxArea: 4 << 20}

// ParseRequest parses the four path segments after the identifier.
func ParseRequest(region, size, rotation, qualityFormat string) (Request, error) {
	var req Request
	var err error
	if req.Region, err = ParseRegion(region); err != nil {
		return req, err
	}
	if req.Size, err = ParseSize(size); err != nil {
		return req, err
	}
	if req.Mirror, req.Rotation, err = ParseRotation(rotation); err != nil {
		return req, err
	}
	if req.Quality, req.Format, err = ParseQualityFormat(qualityFormat); err != nil {
		return req, err
	}
	return req, nil
}

// ParseRegion parses full, square, x,y,w,h and pct:x,y,w,h.
func ParseRegion(s string) (Region, error) {
	switch s {
	case "full":
		return Region{Kind: RegionFull}, nil
	case "square":
		return Region{Kind: RegionSquare}, nil
	}
	kind, xywh, want := RegionPixels, s, "want full, square, x,y,w,h or pct:x,y,w,h"
	if rest, ok := strings.CutPrefix(s, "pct:"); ok {
		kind, xywh, want = RegionPercent, rest, "pct: wants four numbers x,y,w,h"
	}
	v, ok := numbers(xywh, 4, kind == RegionPercent) // percentages may have fractions
	if !ok {
		return Region{}, badRequest("Invalid region %q: %s.", s, want)
	}
	if v[2] <= 0 || v[3] <= 0 {
		return Region{}, badRequest("Invalid region %q: the width and height must be greater than zero.", s)
	}
	return Region{Kind: kind, X: v[0], Y: v[1], W: v[2], H: v[3]}, nil
}

// ParseSize parses max, w,, ,h, pct:n, w,h and !w,h, each with an optional ^.
func ParseSize(s string) (Size, error) {
	orig := s
	var sz Size
	s, sz.Upscale = strings.CutPrefix(s, "^")
	if s == "max" {
		sz.Kind = SizeMax
		return sz, nil
	}
	if s == "full" {
		return sz, badRequest("Invalid size %q: full is not a size in IIIF Image API 3.0; use max.", orig)
	}
	if rest, ok := strings.CutPrefix(s, "pct:"); ok {
		n, ok := number(rest, true)
		if !ok || n <= 0 {
			return sz, badRequest("Invalid size %q: pct: wants a number greater than zero.", orig)
		}
		sz.Kind, sz.Percent = SizePercent, n
		return sz, nil
	}
	confined := false
	if rest, ok := strings.CutPrefix(s, "!"); ok {
		s, confined = rest, true
	}
	ws, hs, ok := strings.Cut(s, ",")
	if !ok {
		return sz, badRequest("Invalid size %q: want max, w,, ,h, pct:n, w,h or !w,h.", orig)
	}
	var w, h int
	if ws != "" {
		if w, ok = positiveInt(ws); !ok {
			return sz, badRequest("Invalid size %q: the width must be a whole number greater than zero.", orig)
		}
	}
	if hs != "" {
		if h, ok = positiveInt(hs); !ok {
			return sz, badRequest("Invalid size %q: the height must be a whole number greater than zero.", orig)
		}
	}
	switch {
	case confined && (w == 0 || h == 0):
		return sz, badRequest("Invalid size %q: !w,h needs both a width and a height.", orig)
	case confined:
		sz.Kind = SizeConfined
	case w != 0 && h != 0:
		sz.Kind = SizeExact
	case w != 0:
		sz.Kind = SizeWidth
	case h != 0:
		sz.Kind = SizeHeight
	default:
		return sz, badRequest("Invalid size %q: give a width, a height or both.", orig)
	}
	sz.W, sz.H = w, h
	return sz, nil
}

// ParseRotation parses n and !n for n in 0–360. Multiples of 90 are supported; other
// angles are valid IIIF but not implemented here (501).
func ParseRotation(s string) (mirror bool, degrees int, err error) {
	orig := s
	s, mirror = strings.CutPrefix(s, "!")
	n, ok := number(s, true)
	if !ok || n < 0 || n > 360 {
		return false, 0, badRequest("Invalid rotation %q: want a number of degrees from 0 to 360, optionally after !.", orig)
	}
	if n != math.Trunc(n) || int(n)%90 != 0 {
		return false, 0, notImplemented("Rotation %q is not supported: only 0, 90, 180 and 270 degrees.", orig)
	}
	return mirror, int(n) % 360, nil
}

// ParseQualityFormat parses {quality}.{format}.
func ParseQualityFormat(s string) (quality, format string, err error) {
	q, f, ok := strings.Cut(s, ".")
	if !ok || strings.Contains(f, ".") {
		return "", "", badRequest("Invalid quality and format %q: want e.g. default.jpg.", s)
	}
	switch q {
	case QualityDefault, QualityColor, QualityGray, QualityBitonal:
	default:
		return "", "", badRequest("Invalid quality %q: want default, color, gray or bitonal.", q)
	}
	switch f {
	case "jpg", "png":
	case "tif", "gif", "jp2", "pdf", "webp":
		return "", "", notImplemented("Format %q is not supported: jpg and png are.", f)
	default:
		return "", "", badRequest("Invalid format %q: want jpg or png.", f)
	}
	return q, f, nil
}

// numbers parses n comma-separated non-negative numbers (decimals when frac).
func numbers(s string, n int, frac bool) ([]float64, bool) {
	parts := strings.Split(s, ",")
	if len(parts) != n {
		return nil, false
	}
	out := make([]float64, n)
	for i, p := range parts {
		v, ok := number(p, frac)
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// number parses digits, with an optional fraction (digits '.' digits) when frac: no
// signs, exponents, spaces, NaN or infinities.
func number(s string, frac bool) (float64, bool) {
	if s == "" || len(s) > 24 {
		return 0, false
	}
	dot := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
		case c == '.' && frac && dot < 0 && i > 0 && i < len(s)-1:
			dot = i
		default:
			return 0, false
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

func positiveInt(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n > 0
}

// Plan is a request applied to an image of a given size: the region in full-size
// pixels and the size of the answer before rotation.
type Plan struct {
	Rect          image.Rectangle
	Width, Height int
	Request       Request
}

// Resolve applies the request to an image of width × height pixels under the limits.
func (req Request) Resolve(width, height int, lim Limits) (Plan, error) {
	p := Plan{Request: req}
	r := req.Region
	switch r.Kind {
	case RegionFull:
		p.Rect = image.Rect(0, 0, width, height)
	case RegionSquare:
		side := min(width, height)
		x, y := (width-side)/2, (height-side)/2
		p.Rect = image.Rect(x, y, x+side, y+side)
	case RegionPixels:
		if r.X >= float64(width) || r.Y >= float64(height) {
			return p, badRequest("The region lies outside the image (%d × %d pixels).", width, height)
		}
		x, y := int(r.X), int(r.Y)
		p.Rect = image.Rect(x, y, int(min(r.X+r.W, float64(width))), int(min(r.Y+r.H, float64(height))))
	case RegionPercent:
		x0 := int(math.Round(r.X / 100 * float64(width)))
		y0 := int(math.Round(r.Y / 100 * float64(height)))
		x1 := int(math.Round(min(r.X+r.W, 100) / 100 * float64(width)))
		y1 := int(math.Round(min(r.Y+r.H, 100) / 100 * float64(height)))
		if x0 >= width || y0 >= height || x1 <= x0 || y1 <= y0 {
			return p, badRequest("The region lies outside the image or is less than a pixel.")
		}
		p.Rect = image.Rect(x0, y0, x1, y1)
	}
	rw, rh := p.Rect.Dx(), p.Rect.Dy()
	s := req.Size
	var w, h int
	switch s.Kind {
	case SizeMax:
		scale := math.Min(float64(lim.MaxWidth)/float64(rw), float64(lim.MaxHeight)/float64(rh))
		scale = math.Min(scale, math.Sqrt(float64(lim.MaxArea)/(float64(rw)*float64(rh))))
		if !s.Upscale {
			scale = math.Min(scale, 1)
		}
		if scale == 1 {
			w, h = rw, rh
		} else {
			w, h = max(1, int(float64(rw)*scale)), max(1, int(float64(rh)*scale))
		}
	case SizeWidth:
		w = s.W
		h = max(1, int(math.Round(float64(rh)*float64(w)/float64(rw))))
	case SizeHeight:
		h = s.H
		w = max(1, int(math.Round(float64(rw)*float64(h)/float64(rh))))
	case SizePercent:
		if s.Percent > 100 && !s.Upscale {
			return p, badRequest("Size pct:%g is larger than the region; use ^pct: to upscale.", s.Percent)
		}
		if s.Percent > 1e6 {
			return p, badRequest("Size pct:%g is beyond this server's limits.", s.Percent)
		}
		w = int(math.Round(float64(rw) * s.Percent / 100))
		h = int(math.Round(float64(rh) * s.Percent / 100))
		if w < 1 || h < 1 {
			return p, badRequest("Size pct:%g gives an image less than a pixel wide or high.", s.Percent)
		}
	case SizeExact:
		w, h = s.W, s.H
	case SizeConfined:
		// As large as fits in w × h, but without ^ never larger than the region.
		scale := math.Min(float64(s.W)/float64(rw), float64(s.H)/float64(rh))
		if !s.Upscale {
			scale = math.Min(scale, 1)
		}
		w = min(s.W, max(1, int(math.Round(float64(rw)*scale))))
		h = min(s.H, max(1, int(math.Round(float64(rh)*scale))))
	}
	if !s.Upscale && (w > rw || h > rh) {
		return p, badRequest("The size %d × %d is larger than the region (%d × %d); use ^ to upscale.", w, h, rw, rh)
	}
	if w > lim.MaxWidth || h > lim.MaxHeight || int64(w)*int64(h) > lim.MaxArea {
		return p, badRequest("The size %d × %d is beyond this server's limits (maxWidth %d, maxHeight %d, maxArea %d).", w, h, lim.MaxWidth, lim.MaxHeight, lim.MaxArea)
	}
	p.Width, p.Height = w, h
	return p, nil
}

// Canonical is the canonical form of the plan's parameters for an image of width ×
// height: region full or x,y,w,h; size max or w,h (with ^ when upscaled).
func (p Plan) Canonical(width, height int) string {
	var b strings.Builder
	if p.Rect == image.Rect(0, 0, width, height) {
		b.WriteString("full")
	} else {
		fmt.Fprintf(&b, "%d,%d,%d,%d", p.Rect.Min.X, p.Rect.Min.Y, p.Rect.Dx(), p.Rect.Dy())
	}
	b.WriteByte('/')
	switch {
	case p.Width == p.Rect.Dx() && p.Height == p.Rect.Dy():
		b.WriteString("max")
	case p.Width > p.Rect.Dx() || p.Height > p.Rect.Dy():
		fmt.Fprintf(&b, "^%d,%d", p.Width, p.Height)
	default:
		fmt.Fprintf(&b, "%d,%d", p.Width, p.Height)
	}
	b.WriteByte('/')
	if p.Request.Mirror {
		b.WriteByte('!')
	}
	b.WriteString(strconv.Itoa(p.Request.Rotation))
	b.WriteByte('/')
	b.WriteString(p.Request.Quality)
	b.WriteByte('.')
	b.WriteString(p.Request.Format)
	return b.String()
}
