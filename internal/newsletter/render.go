package newsletter

import (
	"html"
	"strings"
)

// Mail HTML is written for mail readers, not browsers: one table-less column with
// every style inline (readers drop <style> and external sheets), absolute links and
// image addresses, and nothing that runs.

const (
	fontStyle = `font-family:Georgia,'Times New Roman',serif;font-size:17px;line-height:1.5;color:#1a1a1a`
	linkStyle = `color:#1d4e89;text-decoration:underline`
)

func esc(s string) string { return html.EscapeString(s) }

// emailPage wraps body in the message's page: a heading with the society's name and a
// footer (footer is HTML, e.g. the preferences and unsubscribe links).
func emailPage(society, heading, body, footer string) string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>`)
	b.WriteString(esc(heading))
	b.WriteString(`</title></head><body style="margin:0;padding:0;background:#f4f1ea">`)
	b.WriteString(`<div style="max-width:640px;margin:0 auto;padding:24px 16px;background:#ffffff;` + fontStyle + `">`)
	b.WriteString(`<p style="margin:0 0 8px;font-size:14px;color:#555555;text-transform:uppercase;letter-spacing:1px">` + esc(society) + `</p>`)
	b.WriteString(`<h1 style="margin:0 0 24px;font-size:28px;line-height:1.2;color:#1a1a1a">` + esc(heading) + `</h1>`)
	b.WriteString(body)
	if footer != "" {
		b.WriteString(`<hr style="border:0;border-top:1px solid #dddddd;margin:32px 0 16px">`)
		b.WriteString(`<div style="font-size:14px;color:#555555">` + footer + `</div>`)
	}
	b.WriteString(`</div></body></html>`)
	return wrapHTML(b.String())
}

// richText renders Prismic rich text (a list of blocks with spans) to mail HTML and
// to plain text.
func richText(blocks any, origin string) (string, string) {
	list, _ := blocks.([]any)
	var h, t strings.Builder
	inList := ""
	closeList := func() {
		if inList != "" {
			h.WriteString("</" + inList + ">")
			inList = ""
		}
	}
	for i, raw := range list {
		bl, _ := raw.(map[string]any)
		if bl == nil {
			continue
		}
		typ, _ := bl["type"].(string)
		text, _ := bl["text"].(string)
		spans, _ := bl["spans"].([]any)
		inner := spanHTML(text, spans, origin)
		switch typ {
		case "list-item", "o-list-item":
			tag := "ul"
			if typ == "o-list-item" {
				tag = "ol"
			}
			if inList != tag {
				closeList()
				h.WriteString(`<` + tag + ` style="margin:0 0 16px;padding-left:24px">`)
				inList = tag
			}
			h.WriteString(`<li style="margin:0 0 4px">` + inner + `</li>`)
			if tag == "ol" {
				t.WriteString(itoa(i+1) + ". " + text + "\n")
			} else {
				t.WriteString("- " + text + "\n")
			}
			continue
		}
		closeList()
		switch typ {
		case "heading1", "heading2", "heading3", "heading4", "heading5", "heading6":
			size := map[string]string{"heading1": "26px", "heading2": "22px", "heading3": "19px"}[typ]
			if size == "" {
				size = "17px"
			}
			h.WriteString(`<h2 style="margin:24px 0 8px;font-size:` + size + `;line-height:1.25">` + inner + `</h2>`)
			t.WriteString("\n" + strings.ToUpper(text) + "\n\n")
		case "image":
			src, _ := bl["url"].(string)
			alt, _ := bl["alt"].(string)
			if src == "" {
				continue
			}
			h.WriteString(`<p style="margin:0 0 16px"><img src="` + esc(absURL(src, origin)) + `" alt="` + esc(alt) + `" style="max-width:100%;height:auto;display:block;border:0"></p>`)
			if alt != "" {
				t.WriteString("[" + alt + "]\n\n")
			}
		case "preformatted":
			h.WriteString(`<pre style="margin:0 0 16px;white-space:pre-wrap;font-family:monospace;font-size:15px">` + esc(text) + `</pre>`)
			t.WriteString(text + "\n\n")
		default:
			h.WriteString(`<p style="margin:0 0 16px">` + inner + `</p>`)
			t.WriteString(text + spanLinks(text, spans, origin) + "\n\n")
		}
	}
	closeList()
	return h.String(), t.String()
}

// spanHTML applies strong, em and hyperlink spans to text.
func spanHTML(text string, spans []any, origin string) string {
	rs := []rune(text)
	opens := map[int][]string{}
	closes := map[int][]string{}
	for _, raw := range spans {
		sp, _ := raw.(map[string]any)
		start, _ := sp["start"].(float64)
		end, _ := sp["end"].(float64)
		s, e := int(start), int(end)
		if s < 0 || e > len(rs) || s >= e {
			continue
		}
		var open, cls string
		switch sp["type"] {
		case "strong":
			open, cls = "<strong>", "</strong>"
		case "em":
			open, cls = "<em>", "</em>"
		case "hyperlink":
			href := linkURL(sp["data"], origin)
			if href == "" {
				continue
			}
			open, cls = `<a href="`+esc(href)+`" style="`+linkStyle+`">`, "</a>"
		default:
			continue
		}
		opens[s] = append(opens[s], open)
		closes[e] = append([]string{cls}, closes[e]...)
	}
	var b strings.Builder
	for i := 0; i <= len(rs); i++ {
		for _, c := range closes[i] {
			b.WriteString(c)
		}
		for _, o := range opens[i] {
			b.WriteString(o)
		}
		if i < len(rs) {
			b.WriteString(esc(string(rs[i])))
		}
	}
	return b.String()
}

// spanLinks lists a paragraph's links after it in plain text.
func spanLinks(text string, spans []any, origin string) string {
	var out []string
	for _, raw := range spans {
		sp, _ := raw.(map[string]any)
		if sp["type"] == "hyperlink" {
			if href := linkURL(sp["data"], origin); href != "" {
				out = append(out, "<"+href+">")
			}
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " " + strings.Join(out, " ")
}

func linkURL(data any, origin string) string {
	d, _ := data.(map[string]any)
	if d == nil {
		return ""
	}
	if u, _ := d["url"].(string); u != "" {
		return absURL(u, origin)
	}
	return ""
}

// absURL makes a site path absolute; other schemes than http(s) and mailto are dropped.
func absURL(u, origin string) string {
	switch {
	case strings.HasPrefix(u, "https://"), strings.HasPrefix(u, "http://"), strings.HasPrefix(u, "mailto:"):
		return u
	case strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//"):
		return origin + u
	}
	return ""
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// maxLine bounds the lines of a message's parts. Mail is sent 8bit (internal/mail),
// where SMTP allows 998 bytes a line; the margin leaves room for the personal links
// put in after wrapping.
const maxLine = 760

var blockEnds = strings.NewReplacer("</p>", "</p>\n", "</li>", "</li>\n", "</h1>", "</h1>\n", "</h2>", "</h2>\n",
	"</ul>", "</ul>\n", "</ol>", "</ol>\n", "</div>", "</div>\n", "</pre>", "</pre>\n")

// wrapHTML puts block elements on lines of their own and breaks long runs of text
// at spaces, which changes nothing a reader sees.
func wrapHTML(h string) string { return wrapLines(blockEnds.Replace(h)) }

// wrapLines breaks every line longer than maxLine at its last space before the limit
// (or at the limit when it has none).
func wrapLines(s string) string {
	if !hasLongLine(s) {
		return s
	}
	var b strings.Builder
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		for len(line) > maxLine {
			cut := strings.LastIndexByte(line[:maxLine], ' ')
			if cut <= 0 {
				cut = maxLine
				for cut > 0 && line[cut]&0xC0 == 0x80 { // not inside a UTF-8 character
					cut--
				}
			}
			b.WriteString(line[:cut])
			b.WriteByte('\n')
			line = strings.TrimPrefix(line[cut:], " ")
		}
		b.WriteString(line)
	}
	return b.String()
}

func hasLongLine(s string) bool {
	for len(s) > maxLine {
		i := strings.IndexByte(s, '\n')
		if i < 0 || i > maxLine {
			return true
		}
		s = s[i+1:]
	}
	return false
}
