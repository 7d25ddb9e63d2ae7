package trees

import (
	"errors"
	"strconv"
	"strings"

	"lineage/internal/gedcom"
)

// A record is stored in tree_records.data as text, one line per structure, depth first:
//
//	DEPTH \t XREF \t TAG \t POINTER \t VALUE \n
//
// with \\, \t, \n and \r in every field written as \\, \t, \n and \r, and NUL as \0
// (PostgreSQL text cannot hold NUL). Line numbers are not kept. The encoding is ours
// alone, compact, and quick to write and read back for export and person pages.

var errBadRecord = errors.New("trees: malformed stored record")

func encodeRecord(rec *gedcom.Line) string {
	var b strings.Builder
	var walk func(l *gedcom.Line, depth int)
	walk = func(l *gedcom.Line, depth int) {
		b.WriteString(strconv.Itoa(depth))
		b.WriteByte('\t')
		escapeField(&b, l.Xref)
		b.WriteByte('\t')
		escapeField(&b, l.Tag)
		b.WriteByte('\t')
		escapeField(&b, l.Pointer)
		b.WriteByte('\t')
		escapeField(&b, l.Value)
		b.WriteByte('\n')
		for _, c := range l.Children {
			walk(c, depth+1)
		}
	}
	walk(rec, 0)
	return b.String()
}

func escapeField(b *strings.Builder, s string) {
	if !strings.ContainsAny(s, "\\\t\n\r\x00") {
		b.WriteString(s)
		return
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			b.WriteString(`\\`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case 0:
			b.WriteString(`\0`)
		default:
			b.WriteByte(c)
		}
	}
}

func unescapeField(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i == len(s) {
			return "", errBadRecord
		}
		switch s[i] {
		case '\\':
			b.WriteByte('\\')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case '0':
			b.WriteByte(0)
		default:
			return "", errBadRecord
		}
	}
	return b.String(), nil
}

// decodeRecord reads what encodeRecord wrote. It refuses anything else (a first line
// not at depth 0, a depth jump, a wrong field count, a bad escape).
func decodeRecord(data string) (*gedcom.Line, error) {
	var stack []*gedcom.Line
	var root *gedcom.Line
	for data != "" {
		line, rest, ok := strings.Cut(data, "\n")
		if !ok {
			return nil, errBadRecord
		}
		data = rest
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			return nil, errBadRecord
		}
		depth, err := strconv.Atoi(f[0])
		if err != nil || depth < 0 || depth > len(stack) || (depth == 0) != (root == nil) {
			return nil, errBadRecord
		}
		l := &gedcom.Line{Level: depth}
		if l.Xref, err = unescapeField(f[1]); err != nil {
			return nil, err
		}
		if l.Tag, err = unescapeField(f[2]); err != nil {
			return nil, err
		}
		if l.Pointer, err = unescapeField(f[3]); err != nil {
			return nil, err
		}
		if l.Value, err = unescapeField(f[4]); err != nil {
			return nil, err
		}
		if l.Tag == "" {
			return nil, errBadRecord
		}
		stack = stack[:depth]
		if depth == 0 {
			root = l
		} else {
			p := stack[depth-1]
			p.Children = append(p.Children, l)
		}
		stack = append(stack, l)
	}
	if root == nil {
		return nil, errBadRecord
	}
	return root, nil
}
