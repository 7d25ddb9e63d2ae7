package ingest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"lineage/internal/research/index"
)

// The JSON an import stores of each record (its persons and images) and the record
// hash, written by hand: encoding/json's reflection was a tenth of an import's
// reading goroutine. The bytes are exactly encoding/json's (FuzzRecordJSON), so
// hashes of records stored before stay valid.

// appendJSONString appends s as encoding/json writes a string: texts of plain ASCII
// (nearly all) directly, anything else through encoding/json itself.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			j, _ := json.Marshal(s)
			return append(b, j...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendPersonsJSON appends persons as json.Marshal writes them (nil: null).
func appendPersonsJSON(b []byte, persons []index.Person) []byte {
	if persons == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, p := range persons {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"role":`...)
		b = appendJSONString(b, p.Role)
		b = append(b, `,"surname":`...)
		b = appendJSONString(b, p.Surname)
		b = append(b, `,"given_names":`...)
		b = appendJSONString(b, p.GivenNames)
		if p.Sex != "" {
			b = append(b, `,"sex":`...)
			b = appendJSONString(b, p.Sex)
		}
		if p.Age != "" {
			b = append(b, `,"age":`...)
			b = appendJSONString(b, p.Age)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendStringsJSON appends ss as json.Marshal writes them (nil: null).
func appendStringsJSON(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

// recordHash fingerprints what an import stores of a record, so that re-importing an
// unchanged record writes nothing: the first 12 bytes of the SHA-256 of the JSON
// array [type, date, place, transcript, source, access, images, persons], in hex.
// persons is the record's persons JSON (appendPersonsJSON).
func recordHash(r *index.RecordInput, persons []byte) string {
	b := make([]byte, 0, 256+len(persons))
	b = append(b, '[')
	for _, s := range []string{r.Type, r.Date, r.Place, r.Transcript, r.Source, r.Access} {
		b = appendJSONString(b, s)
		b = append(b, ',')
	}
	b = appendStringsJSON(b, r.Images)
	b = append(b, ',')
	b = append(b, persons...)
	b = append(b, ']')
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}
