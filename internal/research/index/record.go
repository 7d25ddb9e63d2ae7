package index

import (
	"slices"
	"time"

	"lineage/internal/access"
)

// Collection kinds (seed spec §1). Family trees arrive with their own room.
const (
	KindRecordSet     = "record_set"
	KindIndex         = "index"
	KindMemorialCards = "memorial_cards"
	KindBirthBriefs   = "birth_briefs"
	KindArchive       = "archive"
	KindLibrary       = "library"
)

// Kinds lists the collection kinds in the order the hub presents them.
var Kinds = []string{KindRecordSet, KindIndex, KindMemorialCards, KindBirthBriefs, KindArchive, KindLibrary}

// ValidKind reports whether k is one of Kinds.
func ValidKind(k string) bool { return slices.Contains(Kinds, k) }

// Access levels of collections and records (internal/access). A collection has any
// level; a record's own mark is public or members (records.access 0 or 1), and its
// level is access.Within(its collection's, its own).
const (
	AccessPublic  = access.Public
	AccessMembers = access.Members
)

func AccessCode(a string) int {
	if a == AccessMembers {
		return 1
	}
	return 0
}

// RecordLevel is the level of a record's own mark.
func RecordLevel(c int) access.Level {
	if c == 1 {
		return access.MustParse(access.Members)
	}
	return access.Level{}
}

// StoredLevel reads a level from its columns: access_level, or when empty (rows
// written before it) the integer access.
func StoredLevel(code int, text string) (access.Level, error) {
	if text == "" {
		return RecordLevel(code), nil
	}
	return access.Parse(text)
}

// LevelColumns is what StoredLevel reads back.
func LevelColumns(l access.Level) (code int, text string) {
	if l.IsPublic() {
		return 0, ""
	}
	return 1, l.String()
}

// Collection is a set of records or catalogue items the society publishes together.
type Collection struct {
	ID          int64        `json:"-"`
	Slug        string       `json:"slug"`
	Kind        string       `json:"kind"`
	Title       string       `json:"title"`
	Description string       `json:"description"`
	Access      string       `json:"access"` // its access.Level's text
	Level       access.Level `json:"-"`      // what Access says
	Count       int64        `json:"count"`  // records, or catalogue items for library and archive
	CreatedAt   time.Time    `json:"created_at"`
	UpdatedAt   time.Time    `json:"updated_at"`
}

// Person is one person named in a record.
type Person struct {
	Role       string `json:"role"`
	Surname    string `json:"surname"`
	GivenNames string `json:"given_names"`
	Sex        string `json:"sex,omitempty"`
	Age        string `json:"age,omitempty"`
}

// Name is the person's name as written, given names first.
func (p Person) Name() string {
	switch {
	case p.GivenNames == "":
		return p.Surname
	case p.Surname == "":
		return p.GivenNames
	}
	return p.GivenNames + " " + p.Surname
}

// RecordInput is one record as an import reads it, before it is stored.
type RecordInput struct {
	Line       int    // the first line of the record in its file
	Lines      []int  // every line of the record
	Key        string // the source's record_id
	Type       string
	Date       string
	Place      string
	Transcript string
	Source     string
	Access     string // "", public or members ("" = the collection's)
	Images     []string
	Persons    []Person
}

// Role names every import and the demo use; others are accepted as written.
const (
	RolePrincipal = "principal"
	RoleFather    = "father"
	RoleMother    = "mother"
	RoleSpouse    = "spouse"
	RoleWitness   = "witness"
)

// RelativeRoles are the roles a relative search (relative_role) accepts.
var RelativeRoles = map[string][]string{
	"father": {"father"},
	"mother": {"mother"},
	"spouse": {"spouse", "husband", "wife", "groom", "bride"},
}
