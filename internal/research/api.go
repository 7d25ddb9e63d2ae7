package research

import (
	"io"
	"lineage/internal/names"
	"lineage/internal/research/gazetteer"
	"lineage/internal/research/index"
	"lineage/internal/research/ingest"
	"lineage/internal/research/search"
	"net/url"
)

// The record model is index's (ingest writes it, search reads it); the room offers it
// under its own name.
type (
	Collection    = index.Collection
	NewCollection = index.NewCollection
	Person        = index.Person
	RecordInput   = index.RecordInput
	Place         = gazetteer.Place
)

// Collection kinds, access marks and roles (index/record.go).
const (
	KindRecordSet     = index.KindRecordSet
	KindIndex         = index.KindIndex
	KindMemorialCards = index.KindMemorialCards
	KindBirthBriefs   = index.KindBirthBriefs
	KindArchive       = index.KindArchive
	KindLibrary       = index.KindLibrary

	AccessPublic  = index.AccessPublic
	AccessMembers = index.AccessMembers

	RolePrincipal = index.RolePrincipal
	RoleFather    = index.RoleFather
	RoleMother    = index.RoleMother
	RoleSpouse    = index.RoleSpouse
	RoleWitness   = index.RoleWitness
)

// Kinds lists the collection kinds in the order the hub presents them.
var Kinds = index.Kinds

// ErrNotFound is returned for an unknown collection or record.
var ErrNotFound = index.ErrNotFound

// ValidSlug reports whether s can name a collection in a URL.
func ValidSlug(s string) bool { return index.ValidSlug(s) }

// The search's query and answer (search/).
type (
	Query        = search.Query
	FieldErrors  = search.FieldErrors
	SearchResult = search.SearchResult
	Result       = search.Result
	Facets       = search.Facets
	FacetValue   = search.FacetValue
	ErrTooBroad  = search.ErrTooBroad
)

// Surname modes (internal/names), sort orders and query limits (search/query.go).
const (
	ModeExact    = names.ModeExact
	ModeVariants = names.ModeVariants
	ModeSoundex  = names.ModeSoundex
	ModePhonetic = names.ModePhonetic
	ModeWildcard = names.ModeWildcard

	SortRelevance = search.SortRelevance
	SortDate      = search.SortDate
	SortName      = search.SortName

	DefaultLimit = search.DefaultLimit
	MaxLimit     = search.MaxLimit
)

var (
	// Modes lists the surname modes (internal/names).
	Modes = names.SurnameModes
	// YearTolerances are the accepted values of year_pm.
	YearTolerances = search.YearTolerances
	// ErrBadCursor is returned for an `after` cursor that does not belong to the query.
	ErrBadCursor = search.ErrBadCursor
)

// ParseQuery reads a search from its query parameters (docs/research.md).
func ParseQuery(v url.Values) (*Query, FieldErrors) { return search.ParseQuery(v) }

// Importing records (ingest/).
type (
	ImportOptions  = ingest.ImportOptions
	ImportProgress = ingest.ImportProgress
	ImportReport   = ingest.ImportReport
	BulkMode       = ingest.BulkMode
	Mapping        = ingest.Mapping
	FieldSpec      = ingest.FieldSpec
	RowError       = ingest.RowError
	CSVLimits      = ingest.CSVLimits
	RecordReader   = ingest.RecordReader
)

// How an import maintains the search index, and the limits of what it reads
// (ingest/importer.go, ingest/csvrows.go).
const (
	BulkAuto  = ingest.BulkAuto
	BulkOff   = ingest.BulkOff
	BulkOn    = ingest.BulkOn
	BulkDefer = ingest.BulkDefer

	MaxReportedErrors = ingest.MaxReportedErrors
	MaxPersons        = ingest.MaxPersons
	DefaultFieldLines = ingest.DefaultFieldLines
	DefaultRowBytes   = ingest.DefaultRowBytes
)

// ErrStrict is returned by a strict import that found bad rows (the report lists
// them); nothing was written.
var ErrStrict = ingest.ErrStrict

// ParseMapping reads a column mapping (docs/research.md).
func ParseMapping(r io.Reader) (*Mapping, error) { return ingest.ParseMapping(r) }

// NewRecordReader reads records from a CSV file, through the mapping m when not nil.
func NewRecordReader(r io.Reader, m *Mapping, lim CSVLimits) (*RecordReader, error) {
	return ingest.NewRecordReader(r, m, lim)
}
