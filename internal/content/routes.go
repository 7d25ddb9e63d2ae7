package content

import (
	"encoding/json"
	"fmt"
	"strings"
)

// route is one entry of the routes parameter, the route resolver that lets the API
// fill `url` on documents and on document links:
//
//	[{"type":"page","path":"/:uid"},
//	 {"type":"page","path":"/:parent/:uid","resolvers":{"parent":"parent"}},
//	 {"type":"home","path":"/:lang?"}]
//
// Placeholders: :uid, :lang, :lang? (left out for the master language), :type, and
// :<name> for a key of resolvers, whose value is a content relationship field (or a
// dotted chain of them, "category.parent") whose target's uid fills the placeholder.
// A trailing ? makes a placeholder optional; a route whose required placeholder cannot
// be filled gives no url.
type route struct {
	Type      string            `json:"type"`
	Path      string            `json:"path"`
	UID       string            `json:"uid,omitempty"`
	Lang      string            `json:"lang,omitempty"`
	Resolvers map[string]string `json:"resolvers,omitempty"`
}

func parseRoutes(s string) ([]route, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var routes []route
	if err := json.Unmarshal([]byte(s), &routes); err != nil {
		return nil, &Error{Kind: KindParsing, Location: "routes", Message: "routes must be a JSON array of {type, path}: " + err.Error()}
	}
	for i, r := range routes {
		if r.Type == "" || r.Path == "" {
			return nil, &Error{Kind: KindParsing, Location: "routes", Message: fmt.Sprintf("route %d needs a type and a path", i+1)}
		}
	}
	// Routes tied to one uid or language come before the general ones of their type.
	specific := make([]route, 0, len(routes))
	var general []route
	for _, r := range routes {
		if r.UID != "" || r.Lang != "" {
			specific = append(specific, r)
		} else {
			general = append(general, r)
		}
	}
	return append(specific, general...), nil
}

// urlFor resolves a document's url with the routes, or returns nil.
func (r *renderer) urlFor(d *sdoc) *string {
	if len(r.routes) == 0 {
		return nil
	}
	if u, ok := r.urls[d]; ok {
		return u
	}
	var out *string
	for _, rt := range r.routes {
		if rt.Type != d.Type || rt.UID != "" && rt.UID != d.UID || rt.Lang != "" && rt.Lang != d.Lang {
			continue
		}
		if u, ok := r.fillPath(rt, d); ok {
			out = &u
		}
		break
	}
	r.urls[d] = out
	return out
}

func (r *renderer) fillPath(rt route, d *sdoc) (string, bool) {
	var segs []string
	for _, seg := range strings.Split(rt.Path, "/") {
		if seg == "" {
			continue
		}
		if !strings.Contains(seg, ":") {
			segs = append(segs, seg)
			continue
		}
		var b strings.Builder
		for i := 0; i < len(seg); {
			if seg[i] != ':' {
				b.WriteByte(seg[i])
				i++
				continue
			}
			j := i + 1
			for j < len(seg) && (isIdentByte(seg[j]) && seg[j] != '-') {
				j++
			}
			name := seg[i+1 : j]
			optional := j < len(seg) && seg[j] == '?'
			if optional {
				j++
			}
			val, ok := r.placeholder(rt, d, name, optional)
			if !ok && !optional {
				return "", false
			}
			b.WriteString(val)
			i = j
		}
		if b.Len() > 0 {
			segs = append(segs, b.String())
		}
	}
	return "/" + strings.Join(segs, "/"), true
}

func (r *renderer) placeholder(rt route, d *sdoc, name string, optional bool) (string, bool) {
	switch name {
	case "uid":
		return d.UID, d.UID != ""
	case "lang":
		if optional && d.Lang == r.snap.masterLang {
			return "", true
		}
		return d.Lang, true
	case "type":
		return d.Type, true
	}
	field, ok := rt.Resolvers[name]
	if !ok {
		return "", false
	}
	cur := d
	for _, step := range strings.Split(field, ".") {
		link, ok := cur.Data[step].(map[string]any)
		if !ok {
			return "", false
		}
		id, _ := link["id"].(string)
		if lt, _ := link["link_type"].(string); lt != "Document" || id == "" {
			return "", false
		}
		if cur = r.snap.byID[id]; cur == nil {
			return "", false
		}
	}
	return cur.UID, cur.UID != ""
}
