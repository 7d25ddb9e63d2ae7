package gedcom

import (
	"strconv"
	"strings"
)

// Line is one GEDCOM structure: a line with the lines under it. A record is a Line at
// level 0.
type Line struct {
	// Level is the line's depth in its record: 0 for the record itself. It equals the
	// level number in the file unless the Reader repaired a level jump (with a warning).
	// The Writer ignores it and writes the depth.
	Level int
	// Xref is the cross-reference identifier without the @ signs ("I1"), in upper case
	// (identifiers are case-insensitive), or "".
	Xref string
	// Tag is the tag as written ("INDI", "_UID").
	Tag string
	// Pointer is the identifier a pointer line points to, without the @ signs and in upper
	// case ("F1"; "VOID" for GEDCOM 7's null pointer), or "". A line has a pointer or a
	// value, not both.
	Pointer string
	// Value is the line value with CONC and CONT lines joined (CONT as "\n") and @@
	// escapes removed. The values of one record share one backing string: clone a value
	// you keep long after the record if memory matters.
	Value string
	// Children are the lines under this one, in file order (CONC and CONT are not
	// children; they are part of Value).
	Children []*Line
	// LineNo is the 1-based line number in the file (0 for lines built in code).
	LineNo int
}

// Void is GEDCOM 7's null pointer identifier: a pointer line with Pointer == Void points
// to nothing (GEDCOM 7.0 §2.2).
const Void = "VOID"

// IsVoid reports whether l is a pointer line with the null pointer @VOID@.
func (l *Line) IsVoid() bool { return l.Pointer == Void }

// Child returns the first child with the tag, or nil.
func (l *Line) Child(tag string) *Line {
	if l == nil {
		return nil
	}
	for _, c := range l.Children {
		if c.Tag == tag {
			return c
		}
	}
	return nil
}

// ChildValue returns the Value of the first child with the tag, or "".
func (l *Line) ChildValue(tag string) string {
	if c := l.Child(tag); c != nil {
		return c.Value
	}
	return ""
}

// ChildrenWith returns the children with the tag, in order.
func (l *Line) ChildrenWith(tag string) []*Line {
	if l == nil {
		return nil
	}
	var out []*Line
	for _, c := range l.Children {
		if c.Tag == tag {
			out = append(out, c)
		}
	}
	return out
}

// Path follows a path of tags from l ("SOUR", "NAME") and returns the first match.
func (l *Line) Path(tags ...string) *Line {
	for _, t := range tags {
		l = l.Child(t)
		if l == nil {
			return nil
		}
	}
	return l
}

// Walk calls fn for l and every line under it, depth first in file order; when fn returns
// false the lines under that line are skipped.
func (l *Line) Walk(fn func(*Line) bool) {
	if l == nil || !fn(l) {
		return
	}
	for _, c := range l.Children {
		c.Walk(fn)
	}
}

// Count returns the number of lines in l's tree, l included.
func (l *Line) Count() int {
	n := 0
	l.Walk(func(*Line) bool { n++; return true })
	return n
}

// Clone returns a deep copy of l whose strings share nothing with the original.
func (l *Line) Clone() *Line {
	if l == nil {
		return nil
	}
	c := &Line{Level: l.Level, Xref: strings.Clone(l.Xref), Tag: strings.Clone(l.Tag),
		Pointer: strings.Clone(l.Pointer), Value: strings.Clone(l.Value), LineNo: l.LineNo}
	if len(l.Children) > 0 {
		c.Children = make([]*Line, len(l.Children))
		for i, k := range l.Children {
			c.Children[i] = k.Clone()
		}
	}
	return c
}

// String renders l and its children as GEDCOM-like text for debugging and test output:
// one line per structure, values with escapes for newlines, no CONC/CONT.
func (l *Line) String() string {
	var b strings.Builder
	l.dump(&b, 0)
	return b.String()
}

func (l *Line) dump(b *strings.Builder, depth int) {
	b.WriteString(strconv.Itoa(depth))
	if l.Xref != "" {
		b.WriteString(" @" + l.Xref + "@")
	}
	b.WriteString(" " + l.Tag)
	if l.Pointer != "" {
		b.WriteString(" @" + l.Pointer + "@")
	} else if l.Value != "" {
		b.WriteString(" " + strconv.Quote(l.Value))
	}
	b.WriteByte('\n')
	for _, c := range l.Children {
		c.dump(b, depth+1)
	}
}

// Version is a GEDCOM version family.
type Version int

// The GEDCOM versions. Version55 also covers earlier 5.x and 4.x files; Version551 covers
// 5.5.1 and the unofficial 5.5.5; Version70 covers every 7.0.x.
const (
	VersionUnknown Version = iota
	Version55
	Version551
	Version70
)

// String is "5.5", "5.5.1", "7.0" or "".
func (v Version) String() string {
	switch v {
	case Version55:
		return "5.5"
	case Version551:
		return "5.5.1"
	case Version70:
		return "7.0"
	}
	return ""
}

// ParseVersion maps a GEDC.VERS value to its family; ok is false for values it does not
// recognise.
func ParseVersion(s string) (v Version, ok bool) {
	s = strings.TrimSpace(s)
	switch {
	case s == "7" || strings.HasPrefix(s, "7."):
		return Version70, true
	case s == "5.5.1" || strings.HasPrefix(s, "5.5.1.") || s == "5.5.5":
		return Version551, true
	case s == "5.5" || s == "5.5.0" || strings.HasPrefix(s, "5.") || strings.HasPrefix(s, "4."):
		return Version55, true
	}
	return VersionUnknown, false
}

// Header is what the HEAD record says about a file, and how the Reader read it.
type Header struct {
	// Version is the version family from HEAD.GEDC.VERS; VersionString is the value as
	// written ("7.0.14"). When the file has no version the Reader reads it as 5.5.1 and
	// Version is VersionUnknown.
	Version       Version
	VersionString string
	// Charset is HEAD.CHAR as written ("ANSEL", "UTF-8"; "" in GEDCOM 7).
	Charset string
	// Encoding is the encoding the Reader used; BOM tells whether the file had a byte
	// order mark.
	Encoding Encoding
	BOM      bool
	// Source is HEAD.SOUR (the system id), SourceName and SourceVersion its NAME and VERS.
	Source, SourceName, SourceVersion string
	// Language is HEAD.LANG, Submitter the HEAD.SUBM pointer, Filename HEAD.FILE.
	Language, Submitter, Filename string
	// Schema maps extension tags to their URIs (GEDCOM 7 HEAD.SCHMA.TAG).
	Schema map[string]string
	// Record is the whole HEAD record, nil for a file without one. The Writer writes it
	// (with GEDC, CHAR and the version made right) when it is set.
	Record *Line
}

func headerFrom(head *Line) *Header {
	h := &Header{Record: head}
	if head == nil {
		return h
	}
	h.VersionString = head.Path("GEDC", "VERS").ValueOrEmpty()
	h.Version, _ = ParseVersion(h.VersionString)
	h.Charset = head.ChildValue("CHAR")
	if s := head.Child("SOUR"); s != nil {
		h.Source = s.Value
		h.SourceName = s.ChildValue("NAME")
		h.SourceVersion = s.ChildValue("VERS")
	}
	h.Language = head.ChildValue("LANG")
	if s := head.Child("SUBM"); s != nil {
		h.Submitter = s.Pointer
	}
	h.Filename = head.ChildValue("FILE")
	if s := head.Child("SCHMA"); s != nil {
		for _, t := range s.ChildrenWith("TAG") {
			tag, uri, _ := strings.Cut(strings.TrimSpace(t.Value), " ")
			if tag != "" {
				if h.Schema == nil {
					h.Schema = map[string]string{}
				}
				h.Schema[tag] = strings.TrimSpace(uri)
			}
		}
	}
	return h
}

// ValueOrEmpty returns l.Value, or "" when l is nil.
func (l *Line) ValueOrEmpty() string {
	if l == nil {
		return ""
	}
	return l.Value
}
