package iiif

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"lineage/internal/gendate"
)

// demoVersion changes whenever the pictures the generator draws change, so that an
// old data folder gets the new ones.
const demoVersion = "demo-1"

// DemoItem is one generated item of serve --demo.
type DemoItem struct {
	Slug       string
	Collection string // research collection
	Nth        int    // attached to the collection's Nth record (0-based, by id)
	Year       int    // when set, to the collection's first record of that year instead
	Label      string // "" → the record's, or Title's
	// Title names a register of the record's kind; its label adds the record's place
	// and years, so that a scan never claims a parish or a year its records lack
	// ("Register of baptisms" → "Register of baptisms, St Paul, Ely, 1793 (pages 1–3)").
	Title string
	Pages []DemoPage
}

// DemoPage is one generated scan.
type DemoPage struct {
	Kind          string // card-front, card-back, register, brief
	Label         string
	Width, Height int
	Seed          uint64
}

// DemoItems are the scans serve --demo generates (docs/iiif.md).
func DemoItems() []DemoItem {
	return []DemoItem{
		{Slug: "demo-memorial-card-1", Collection: "memorial-cards", Nth: 0, Pages: []DemoPage{
			{"card-front", "Front", 6000, 4000, 11}, {"card-back", "Back", 6000, 4000, 12}}},
		{Slug: "demo-memorial-card-2", Collection: "memorial-cards", Nth: 1, Pages: []DemoPage{
			{"card-front", "Front", 6000, 4000, 21}}},
		{Slug: "demo-register-1851", Collection: "parish-baptisms", Year: 1851, Title: "Register of baptisms", Pages: []DemoPage{
			{"register", "p. 1", 6400, 4400, 31}, {"register", "p. 2", 6400, 4400, 32}, {"register", "p. 3", 6400, 4400, 33}}},
		{Slug: "demo-birth-brief-1", Collection: "birth-briefs", Nth: 0, Pages: []DemoPage{
			{"brief", "Birth brief", 6000, 4000, 41}}},
	}
}

// LoadDemo generates and tiles the demo scans that are missing (or were drawn by an
// older generator) and attaches them to the demo research records. Collections that
// are not there are skipped. It returns the number of scans it cut.
//
// cacheDir, when not empty, keeps the generated pyramids between data folders (the
// pictures are deterministic): a scan found there is hard-linked (or copied) instead
// of drawn and cut again, which makes a fresh serve --demo start in moments.
func (s *Service) LoadDemo(ctx context.Context, items []DemoItem, cacheDir string) (int, error) {
	cut := 0
	for _, it := range items {
		recordID, place, lo, hi, err := s.demoRecord(ctx, it)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return cut, err
		}
		label := it.Label
		if label == "" && it.Title != "" {
			label = registerLabel(it.Title, place, lo, hi, len(it.Pages))
		}
		spec := ItemSpec{Collection: it.Collection, RecordID: recordID, Slug: it.Slug, Label: label}
		for i, p := range it.Pages {
			sum := sha256.Sum256(fmt.Appendf(nil, "%s/%s/%d/%d/%d", demoVersion, p.Kind, p.Width, p.Height, p.Seed))
			version := hex.EncodeToString(sum[:8])
			p := p
			itemID, slug, err := s.ensureItem(ctx, spec)
			if err != nil {
				return cut, err
			}
			_, changed, err := s.putPage(ctx, itemID, slug, i+1, p.Label, "generated:"+p.Kind, version, func(dir string) (Pyramid, error) {
				return cachedPyramid(cacheDir, version, dir, func() image.Image { return DrawDemoPage(p) })
			})
			if err != nil {
				return cut, fmt.Errorf("demo scan %s p. %d: %w", it.Slug, i+1, err)
			}
			if changed {
				cut++
			}
		}
	}
	return cut, nil
}

// demoRecord finds the record a demo item is attached to: the collection's first of
// the item's year (its Nth when it names none, or none is of that year), with the place
// and date range its label may name.
func (s *Service) demoRecord(ctx context.Context, it DemoItem) (id int64, place string, lo, hi sql.NullInt64, err error) {
	const q = `SELECT r.id, r.place_text, r.jdn_lo, r.jdn_hi FROM records r JOIN collections c ON c.id = r.collection_id WHERE c.slug = ?`
	if it.Year != 0 {
		err = s.db.QueryRowContext(ctx, s.db.Rebind(q+` AND r.jdn_lo >= ? AND r.jdn_hi < ? ORDER BY r.id LIMIT 1`), it.Collection,
			gendate.GregorianToJDN(it.Year, 1, 1), gendate.GregorianToJDN(it.Year+1, 1, 1)).Scan(&id, &place, &lo, &hi)
		if !errors.Is(err, sql.ErrNoRows) {
			return id, place, lo, hi, err
		}
	}
	err = s.db.QueryRowContext(ctx, s.db.Rebind(q+` ORDER BY r.id LIMIT 1 OFFSET ?`), it.Collection, it.Nth).Scan(&id, &place, &lo, &hi)
	return id, place, lo, hi, err
}

// registerLabel is title with the place and years of the record a register's scans are
// attached to, and its pages: "Register of baptisms, St Paul, Ely, 1793 (pages 1–3)".
func registerLabel(title, place string, lo, hi sql.NullInt64, pages int) string {
	label := title
	if place != "" {
		label += ", " + place
	}
	if lo.Valid {
		from, _, _ := gendate.JDNToGregorian(int(lo.Int64))
		label += ", " + strconv.Itoa(from)
		if hi.Valid {
			if to, _, _ := gendate.JDNToGregorian(int(hi.Int64)); to != from {
				label += "–" + strconv.Itoa(to)
			}
		}
	}
	if pages > 1 {
		label += fmt.Sprintf(" (pages 1–%d)", pages)
	}
	return label
}

// cachedPyramid fills dir with the pyramid kept under cacheDir/version, or draws and
// cuts it there and keeps a copy.
func cachedPyramid(cacheDir, version, dir string, draw func() image.Image) (Pyramid, error) {
	var pyr Pyramid
	if cacheDir != "" {
		kept := filepath.Join(cacheDir, version)
		if b, err := os.ReadFile(filepath.Join(kept, "pyramid")); err == nil {
			if _, err := fmt.Sscanf(string(b), "%d %d %d", &pyr.Width, &pyr.Height, &pyr.Levels); err == nil && pyr.Levels > 0 {
				if err := linkTree(kept, dir); err == nil {
					os.Remove(filepath.Join(dir, "pyramid"))
					return pyr, nil
				}
			}
		}
	}
	pyr, err := CutTiles(draw(), dir)
	if err != nil || cacheDir == "" {
		return pyr, err
	}
	// Keep a copy; failing to is not an error.
	tmp := filepath.Join(cacheDir, ".tmp-"+version+"-"+strconv.Itoa(os.Getpid()))
	os.RemoveAll(tmp)
	if linkTree(dir, tmp) == nil && os.WriteFile(filepath.Join(tmp, "pyramid"), fmt.Appendf(nil, "%d %d %d\n", pyr.Width, pyr.Height, pyr.Levels), 0o644) == nil {
		if os.Rename(tmp, filepath.Join(cacheDir, version)) == nil {
			return pyr, nil
		}
	}
	os.RemoveAll(tmp)
	return pyr, nil
}

// linkTree recreates the files of src under dst as hard links, or copies when links
// are not possible.
func linkTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if os.Link(path, target) == nil {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}

// DrawDemoPage draws a scan procedurally: paper with texture and foxing, ruled lines,
// borders and handwriting-like strokes. The same page gives the same pixels.
func DrawDemoPage(p DemoPage) *image.RGBA {
	c := &sheet{img: image.NewRGBA(image.Rect(0, 0, p.Width, p.Height)), r: rand.New(rand.NewPCG(p.Seed, 0x1ea9e))}
	c.paper(p.Seed)
	switch p.Kind {
	case "card-front":
		c.cardFront()
	case "card-back":
		c.cardBack()
	case "register":
		c.register(int(p.Seed))
	case "brief":
		c.brief()
	}
	return c.img
}

type sheet struct {
	img *image.RGBA
	r   *rand.Rand
}

// hash2 is a cheap deterministic hash of a pixel position.
func hash2(x, y int, seed uint64) uint32 {
	h := uint64(x)*0x9E3779B97F4A7C15 ^ uint64(y)*0xC2B2AE3D27D4EB4F ^ seed*0x165667B19E3779F9
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 32
	return uint32(h)
}

// paper fills the sheet: a cream base, low-frequency blotches, yellowing towards the
// edges and fine grain.
func (c *sheet) paper(seed uint64) {
	m := c.img
	w, h := m.Rect.Dx(), m.Rect.Dy()
	const cell = 256
	gw, gh := w/cell+2, h/cell+2
	grid := make([]float32, gw*gh)
	for i := range grid {
		grid[i] = float32(hash2(i, 7, seed)%1000)/1000 - 0.5
	}
	smooth := make([]float32, cell)
	for i := range smooth {
		f := float32(i) / cell
		smooth[i] = f * f * (3 - 2*f)
	}
	edge := func(i, n int) float32 { return float32(min(i, n-1-i)) / float32(n) }
	edgeX := make([]float32, w)
	for x := range edgeX {
		edgeX[x] = edge(x, w)
	}
	parallelRows(h, func(y0, y1 int) {
		col := make([]float32, gw) // the grid interpolated to this row
		for y := y0; y < y1; y++ {
			gy, fy := y/cell, smooth[y%cell]
			for i := range col {
				col[i] = grid[gy*gw+i]*(1-fy) + grid[(gy+1)*gw+i]*fy
			}
			ey := edge(y, h)
			row := m.Pix[y*m.Stride:]
			for x := 0; x < w; x++ {
				gx, fx := x/cell, smooth[x%cell]
				blot := col[gx]*(1-fx) + col[gx+1]*fx
				e := min(edgeX[x], ey)
				yellow := float32(0)
				if e < 0.06 {
					yellow = (0.06 - e) * 180
				}
				v := int(232+blot*14-yellow) + int(hash2(x, y, seed)&7) - 3
				row[4*x] = clampInt(v + 6)
				row[4*x+1] = clampInt(v - 2)
				row[4*x+2] = clampInt(v - 26 - int(yellow*0.8))
				row[4*x+3] = 255
			}
		}
	})
	// A few foxing spots.
	for i := 0; i < 25; i++ {
		x, y, rad := c.r.IntN(w), c.r.IntN(h), 6+c.r.IntN(30)
		c.disc(float64(x), float64(y), float64(rad), [3]uint8{150, 100, 55}, 0.18)
	}
}

func clampInt(v int) uint8 {
	return uint8(min(255, max(0, v)))
}

func clamp8(v float64) uint8 {
	switch {
	case v < 0:
		return 0
	case v > 255:
		return 255
	}
	return uint8(v)
}

// blend mixes colour col into pixel (x, y) with opacity a.
func (c *sheet) blend(x, y int, col [3]uint8, a float64) {
	m := c.img
	if x < 0 || y < 0 || x >= m.Rect.Dx() || y >= m.Rect.Dy() {
		return
	}
	i := y*m.Stride + 4*x
	for k := 0; k < 3; k++ {
		m.Pix[i+k] = uint8(float64(m.Pix[i+k])*(1-a) + float64(col[k])*a)
	}
}

func (c *sheet) rect(x0, y0, x1, y1 int, col [3]uint8, a float64) {
	for y := max(0, y0); y < min(y1, c.img.Rect.Dy()); y++ {
		for x := max(0, x0); x < min(x1, c.img.Rect.Dx()); x++ {
			c.blend(x, y, col, a)
		}
	}
}

func (c *sheet) disc(cx, cy, rad float64, col [3]uint8, a float64) {
	for y := int(cy - rad); y <= int(cy+rad); y++ {
		for x := int(cx - rad); x <= int(cx+rad); x++ {
			if dx, dy := float64(x)-cx, float64(y)-cy; dx*dx+dy*dy <= rad*rad {
				c.blend(x, y, col, a)
			}
		}
	}
}

// line draws a thick line with round ends.
func (c *sheet) line(x0, y0, x1, y1, thick float64, col [3]uint8, a float64) {
	n := int(math.Max(math.Abs(x1-x0), math.Abs(y1-y0))/math.Max(1, thick/2)) + 1
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		c.disc(x0+(x1-x0)*t, y0+(y1-y0)*t, thick/2, col, a)
	}
}

var (
	ink      = [3]uint8{38, 30, 48}
	brownInk = [3]uint8{70, 45, 25}
	black    = [3]uint8{18, 18, 18}
	ruleBlue = [3]uint8{110, 140, 190}
	ruleRed  = [3]uint8{190, 80, 70}
)

// word scribbles a handwriting-like word of about length pixels, x-height xh, from
// (x, base); it returns where the word ends.
func (c *sheet) word(x, base, length, xh, thick float64, col [3]uint8) float64 {
	px, py := x, base
	end := x + length
	for px < end {
		nx := px + xh*(0.35+0.4*c.r.Float64())
		ny := base - xh*(0.2+0.8*c.r.Float64())
		switch c.r.IntN(9) {
		case 0:
			ny = base - xh*2.1 // ascender
		case 1:
			ny = base + xh*0.9 // descender
		}
		c.line(px, py, nx, ny, thick, col, 0.85)
		px, py = nx, base-xh*0.1*c.r.Float64()
		c.line(nx, ny, px+xh*0.15, py, thick, col, 0.85)
	}
	return end
}

// writing fills a line from x0 to x1 with words.
func (c *sheet) writing(x0, x1, base, xh, thick float64, col [3]uint8) {
	x := x0
	for x < x1-xh*2 {
		l := math.Min(xh*(2+6*c.r.Float64()), x1-x)
		x = c.word(x, base, l, xh, thick, col) + xh*(1+0.6*c.r.Float64())
	}
}

// printed draws a line of print-like glyphs (upright bars of varying height), centred.
func (c *sheet) printed(cx, base, width, capH float64, col [3]uint8) {
	x := cx - width/2
	for x < cx+width/2 {
		wl := int(3 + c.r.IntN(7))
		for i := 0; i < wl && x < cx+width/2; i++ {
			hgt := capH * (0.65 + 0.35*float64(c.r.IntN(2)))
			c.rect(int(x), int(base-hgt), int(x+capH*0.16), int(base), col, 0.9)
			c.rect(int(x), int(base-hgt*0.55), int(x+capH*0.5), int(base-hgt*0.45), col, 0.9)
			x += capH * 0.62
		}
		x += capH * 0.55
	}
}

func (c *sheet) frame(inset, thick int, col [3]uint8, a float64) {
	w, h := c.img.Rect.Dx(), c.img.Rect.Dy()
	c.rect(inset, inset, w-inset, inset+thick, col, a)
	c.rect(inset, h-inset-thick, w-inset, h-inset, col, a)
	c.rect(inset, inset, inset+thick, h-inset, col, a)
	c.rect(w-inset-thick, inset, w-inset, h-inset, col, a)
}

func (c *sheet) cardFront() {
	w, h := float64(c.img.Rect.Dx()), float64(c.img.Rect.Dy())
	c.frame(150, 110, black, 0.92) // mourning border
	c.frame(330, 8, black, 0.8)
	// The fold.
	c.rect(int(w/2)-3, 300, int(w/2)+3, int(h)-300, [3]uint8{170, 160, 140}, 0.5)
	// Left panel: an oval portrait in sepia, and a cross above it.
	cx, cy := w/4, h/2+150
	for y := cy - 1100; y <= cy+1100; y++ {
		for x := cx - 800; x <= cx+800; x++ {
			dx, dy := (x-cx)/800, (y-cy)/1100
			if d := dx*dx + dy*dy; d <= 1 {
				shade := 90 + 80*d + 20*math.Sin(x/37)*math.Cos(y/53)
				c.blend(int(x), int(y), [3]uint8{clamp8(shade + 40), clamp8(shade + 15), clamp8(shade - 10)}, 0.9)
			}
		}
	}
	c.rect(int(cx)-25, 420, int(cx)+25, 820, black, 0.9)
	c.rect(int(cx)-140, 530, int(cx)+140, 580, black, 0.9)
	// Right panel: printed lines, centred.
	rx := w * 3 / 4
	c.printed(rx, 800, 1600, 150, black)
	c.printed(rx, 1150, 1100, 90, black)
	for i, y := 0, 1500.0; y < h-600; i, y = i+1, y+210 {
		c.printed(rx, y, 1900-float64((i%3)*300), 80, black)
	}
}

func (c *sheet) cardBack() {
	w, h := float64(c.img.Rect.Dx()), float64(c.img.Rect.Dy())
	c.frame(150, 110, black, 0.92)
	c.rect(int(w/2)-3, 300, int(w/2)+3, int(h)-300, [3]uint8{170, 160, 140}, 0.5)
	for _, cx := range []float64{w / 4, w * 3 / 4} {
		c.printed(cx, 700, 1000, 110, black)
		for y := 1000.0; y < h-700; y += 190 {
			c.printed(cx, y, 1500+200*math.Sin(y), 70, black)
		}
	}
	// A pencilled note in the margin.
	c.writing(w/2+400, w-500, h-450, 40, 5, [3]uint8{90, 90, 95})
}

func (c *sheet) register(page int) {
	w, h := float64(c.img.Rect.Dx()), float64(c.img.Rect.Dy())
	top, left, right, bottom := 520.0, 260.0, w-260, h-240
	c.printed(w/2, 260, 2600, 130, black)
	c.printed(w-500, 260, 200, 110, black) // page number
	cols := []float64{0, 0.08, 0.2, 0.38, 0.52, 0.66, 0.8, 0.9, 1}
	// Column heads.
	c.rect(int(left), int(top), int(right), int(top)+6, black, 0.9)
	for i := 0; i+1 < len(cols); i++ {
		x0 := left + (right-left)*cols[i]
		x1 := left + (right-left)*cols[i+1]
		c.printed((x0+x1)/2, top+110, (x1-x0)*0.7, 60, black)
	}
	c.rect(int(left), int(top)+160, int(right), int(top)+166, black, 0.9)
	// Red column rules, blue row rules.
	for _, f := range cols {
		x := left + (right-left)*f
		c.rect(int(x)-3, int(top), int(x)+3, int(bottom), ruleRed, 0.8)
	}
	row := 0
	for y := top + 166 + 118; y < bottom; y += 118 {
		c.rect(int(left), int(y)-2, int(right), int(y)+2, ruleBlue, 0.6)
		// An entry in every cell of most rows.
		if row%13 != 12 {
			for i := 0; i+1 < len(cols); i++ {
				x0 := left + (right-left)*cols[i] + 30
				x1 := left + (right-left)*cols[i+1] - 30
				c.writing(x0, x0+(x1-x0)*(0.5+0.5*c.r.Float64()), y-28, 26, 4, brownInk)
			}
		}
		row++
	}
	_ = page
}

func (c *sheet) brief() {
	w, h := float64(c.img.Rect.Dx()), float64(c.img.Rect.Dy())
	c.frame(120, 14, ink, 0.9)
	c.printed(w/2, 330, 2400, 140, black)
	// Four generations, left to right: 1, 2, 4, 8 boxes.
	colX := []float64{300, 1700, 3100, 4500}
	boxW, boxH := 1200.0, 300.0
	type box struct{ x, y float64 }
	var prev []box
	for g := 0; g < 4; g++ {
		n := 1 << g
		var cur []box
		for i := 0; i < n; i++ {
			cy := 600 + (h-800)*(float64(i)+0.5)/float64(n)
			b := box{colX[g], cy - boxH/2}
			cur = append(cur, b)
			c.rect(int(b.x), int(b.y), int(b.x+boxW), int(b.y)+8, ink, 0.9)
			c.rect(int(b.x), int(b.y+boxH)-8, int(b.x+boxW), int(b.y+boxH), ink, 0.9)
			c.rect(int(b.x), int(b.y), int(b.x)+8, int(b.y+boxH), ink, 0.9)
			c.rect(int(b.x+boxW)-8, int(b.y), int(b.x+boxW), int(b.y+boxH), ink, 0.9)
			c.writing(b.x+60, b.x+boxW-80, b.y+120, 34, 5, ink)
			c.writing(b.x+60, b.x+boxW*0.7, b.y+230, 26, 4, ink)
		}
		// Lines from each child to its two parents.
		for i, p := range prev {
			for k := 0; k < 2; k++ {
				q := cur[2*i+k]
				c.line(p.x+boxW, p.y+boxH/2, q.x-100, p.y+boxH/2, 6, ink, 0.9)
				c.line(q.x-100, p.y+boxH/2, q.x-100, q.y+boxH/2, 6, ink, 0.9)
				c.line(q.x-100, q.y+boxH/2, q.x, q.y+boxH/2, 6, ink, 0.9)
			}
		}
		prev = cur
	}
	c.writing(w-1800, w-300, h-200, 30, 4, ink) // signature
}
