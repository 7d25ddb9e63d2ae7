package content

import (
	"fmt"
	"strings"
)

// This file parses the graphQuery parameter, the GraphQL-like selection Prismic uses for
// selective and deep fetching:
//
//	{
//	  page {
//	    title
//	    parent { ...on page { title } }          # fields of a linked document
//	    group { name }                          # fields of each group item
//	    body {                                  # a slice zone
//	      ...on hero { variation { ...on default { primary { title } items { image } } } }
//	      ...on text { non-repeat { content } repeat { caption } }
//	    }
//	  }
//	  news_item { ...news_itemFields }           # every field
//	}
//
// Commas count as white space and # starts a comment, as in GraphQL. Documents of types
// the query does not name keep all their fields.

// gqSel is a selection set.
type gqSel struct {
	all    bool              // a ...<name>Fields spread: every field at this level
	fields map[string]*gqSel // a nil value selects the whole field
	unions map[string]*gqSel // ...on <type or slice or variation>
}

type graphQuery struct {
	types map[string]*gqSel
}

type gqParser struct {
	src   string
	pos   int
	depth int
}

const maxGraphQueryDepth = 16

func parseGraphQuery(src string) (*graphQuery, error) {
	p := &gqParser{src: src}
	gq := &graphQuery{types: map[string]*gqSel{}}
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	for {
		tok, pos := p.next()
		switch {
		case tok == "}":
			if t, pos := p.next(); t != "" {
				return nil, p.errAt(pos, "unexpected '%s' after the end of the query", t)
			}
			return gq, nil
		case tok == "":
			return nil, p.errAt(pos, "unexpected end of query, expected '}'")
		case isGQIdent(tok):
			if err := p.selectionInto(gq.types, tok); err != nil {
				return nil, err
			}
		default:
			return nil, p.errAt(pos, "expected a custom type name but found '%s'", tok)
		}
	}
}

// selection parses items up to and including the closing brace.
func (p *gqParser) selection() (*gqSel, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxGraphQueryDepth {
		return nil, p.errAt(p.pos, "selection nested too deeply")
	}
	sel := &gqSel{fields: map[string]*gqSel{}, unions: map[string]*gqSel{}}
	for {
		tok, pos := p.next()
		switch {
		case tok == "}":
			return sel, nil
		case tok == "":
			return nil, p.errAt(pos, "unexpected end of query, expected '}'")
		case tok == "...":
			name, npos := p.next()
			if !isGQIdent(name) {
				return nil, p.errAt(npos, "expected 'on <type>' or a fragment after '...' but found '%s'", name)
			}
			if p.peek() == "{" || name == "on" {
				// ...on author { … } (also the space-less "...onauthor" some docs show)
				typ := strings.TrimPrefix(name, "on")
				if name == "on" {
					t, tpos := p.next()
					if !isGQIdent(t) {
						return nil, p.errAt(tpos, "expected a type name after 'on' but found '%s'", t)
					}
					typ = t
				}
				if typ == "" {
					return nil, p.errAt(npos, "expected a type name after 'on'")
				}
				if err := p.selectionInto(sel.unions, typ); err != nil {
					return nil, err
				}
				continue
			}
			if !strings.HasSuffix(name, "Fields") {
				return nil, p.errAt(npos, "unknown fragment '...%s' (use ...<type>Fields or ...on <type> { })", name)
			}
			sel.all = true
		case isGQIdent(tok):
			if p.peek() == "{" {
				if err := p.selectionInto(sel.fields, tok); err != nil {
					return nil, err
				}
			} else if _, ok := sel.fields[tok]; !ok {
				sel.fields[tok] = nil
			}
		default:
			return nil, p.errAt(pos, "unexpected '%s'", tok)
		}
	}
}

// selectionInto parses "{ … }" and merges it into m[name], so that a name selected
// twice selects what both selections do.
func (p *gqParser) selectionInto(m map[string]*gqSel, name string) error {
	if err := p.expect("{"); err != nil {
		return err
	}
	sub, err := p.selection()
	if err != nil {
		return err
	}
	if prev := m[name]; prev != nil {
		merge(prev, sub)
	} else {
		m[name] = sub
	}
	return nil
}

func merge(dst, src *gqSel) {
	dst.all = dst.all || src.all
	for k, v := range src.fields {
		if cur, ok := dst.fields[k]; ok && cur != nil && v != nil {
			merge(cur, v)
		} else if !ok || v == nil {
			dst.fields[k] = v
		}
	}
	for k, v := range src.unions {
		if cur := dst.unions[k]; cur != nil {
			merge(cur, v)
		} else {
			dst.unions[k] = v
		}
	}
}

func isGQIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}

func (p *gqParser) skip() {
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',':
			p.pos++
		case c == '#':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

// next returns the next token ("" at the end) and its offset.
func (p *gqParser) next() (string, int) {
	p.skip()
	start := p.pos
	if p.pos >= len(p.src) {
		return "", start
	}
	c := p.src[p.pos]
	switch {
	case c == '{' || c == '}':
		p.pos++
	case strings.HasPrefix(p.src[p.pos:], "..."):
		p.pos += 3
	case isIdentByte(c):
		for p.pos < len(p.src) && isIdentByte(p.src[p.pos]) {
			p.pos++
		}
	default:
		p.pos++
	}
	return p.src[start:p.pos], start
}

func (p *gqParser) peek() string {
	save := p.pos
	t, _ := p.next()
	p.pos = save
	return t
}

func (p *gqParser) expect(tok string) error {
	t, pos := p.next()
	if t != tok {
		if t == "" {
			t = "end of query"
		}
		return p.errAt(pos, "expected '%s' but found '%s'", tok, t)
	}
	return nil
}

func (p *gqParser) errAt(pos int, format string, args ...any) error {
	line, col := 1, 1
	for _, r := range p.src[:min(pos, len(p.src))] {
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return &Error{
		Kind:     KindParsing,
		Message:  fmt.Sprintf("graphQuery: %s on line:%d col:%d", fmt.Sprintf(format, args...), line, col),
		Line:     line,
		Column:   col,
		Location: "graphQuery",
	}
}
