package staff

import (
	"context"
	"io"
)

// SetBatchDone makes fn run after each batch a records job writes.
func (s *Service) SetBatchDone(fn func(ctx context.Context)) { s.batchDone = fn }

// SetCSVLimits lowers the records upload's limits.
func (s *Service) SetCSVLimits(bytes int64, rows int) {
	s.csvLimits = csvLimits{bytes: bytes, rows: rows}
}

// Analyse, Propose, DetectDelimiter and HeaderWord are the upload's parsers.
var (
	DetectDelimiter = detectDelimiter
	HeaderWord      = headerWord
	ParseMapping    = parseMapping
)

// AnalyseFile is analyse with its shape's fields.
func AnalyseFile(r io.Reader, maxRows int) (delimiter string, columns []Column, rows int, err error) {
	sh, err := analyse(r, maxRows)
	if err != nil {
		return "", nil, 0, err
	}
	return sh.Delimiter, sh.Columns, sh.Rows, nil
}

// ProposeFor is propose.
func ProposeFor(columns []string, delimiter string) Proposal { return propose(columns, delimiter) }

var ErrTooManyRows = errTooManyRows

// PruneExpired is pruneExpired.
func (s *Service) PruneExpired(ctx context.Context) error { return s.pruneExpired(ctx) }

// CheckManifest and ManifestFor are the scans form's readers.
var (
	CheckManifest = checkManifest
	ManifestFor   = manifestFor
)
