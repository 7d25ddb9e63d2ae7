package content

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"time"
)

// Document is one content document as the Go API and the import/export files see it.
// Its JSON form is the export shape:
//
//	{"id", "uid", "type", "lang", "tags", "first_publication_date",
//	 "last_publication_date", "alternate_languages", "data"}
//
// Extra keys of a Prismic search result (href, url, slugs, linked_documents) are
// accepted and ignored, so a saved API response can be imported as it is.
type Document struct {
	ID                   string
	UID                  string // "" for types without a UID
	Type                 string
	Lang                 string
	Tags                 []string
	FirstPublicationDate time.Time
	LastPublicationDate  time.Time
	// AlternateLanguages names the documents that translate this one; only their IDs
	// are stored, the rest is recomputed from the documents themselves.
	AlternateLanguages []AlternateLanguage
	Data               json.RawMessage // a JSON object
}

// AlternateLanguage points at a translation of a document.
type AlternateLanguage struct {
	ID   string `json:"id"`
	UID  string `json:"uid,omitempty"`
	Type string `json:"type"`
	Lang string `json:"lang"`
}

type documentJSON struct {
	ID                   string              `json:"id"`
	UID                  *string             `json:"uid"`
	Type                 string              `json:"type"`
	Lang                 string              `json:"lang"`
	Tags                 []string            `json:"tags"`
	FirstPublicationDate *string             `json:"first_publication_date"`
	LastPublicationDate  *string             `json:"last_publication_date"`
	AlternateLanguages   []AlternateLanguage `json:"alternate_languages"`
	Data                 json.RawMessage     `json:"data"`
}

// MarshalJSON writes the export shape.
func (d Document) MarshalJSON() ([]byte, error) {
	j := documentJSON{
		ID: d.ID, Type: d.Type, Lang: d.Lang, Tags: d.Tags,
		FirstPublicationDate: formatTime(d.FirstPublicationDate),
		LastPublicationDate:  formatTime(d.LastPublicationDate),
		AlternateLanguages:   d.AlternateLanguages,
		Data:                 d.Data,
	}
	if d.UID != "" {
		j.UID = &d.UID
	}
	if j.Tags == nil {
		j.Tags = []string{}
	}
	if j.AlternateLanguages == nil {
		j.AlternateLanguages = []AlternateLanguage{}
	}
	if len(j.Data) == 0 {
		j.Data = json.RawMessage("{}")
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads the export shape. Dates may be Prismic timestamps, RFC 3339 or
// plain dates.
func (d *Document) UnmarshalJSON(b []byte) error {
	var j documentJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*d = Document{ID: j.ID, Type: j.Type, Lang: j.Lang, Tags: j.Tags, AlternateLanguages: j.AlternateLanguages, Data: j.Data}
	if j.UID != nil {
		d.UID = *j.UID
	}
	for _, f := range []struct {
		s   *string
		dst *time.Time
		n   string
	}{{j.FirstPublicationDate, &d.FirstPublicationDate, "first_publication_date"}, {j.LastPublicationDate, &d.LastPublicationDate, "last_publication_date"}} {
		if f.s == nil || *f.s == "" {
			continue
		}
		t, ok := parseDate(*f.s)
		if !ok {
			return fmt.Errorf("%s: cannot read %q as a date", f.n, *f.s)
		}
		*f.dst = t
	}
	return nil
}

var (
	apiIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	langPattern  = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)
	docIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
)

// normalize checks a document before it is stored and fills what can be derived: an ID
// from type, language and uid when there is none, compact data, no nil slices.
func (d *Document) normalize() error {
	if !apiIDPattern.MatchString(d.Type) {
		return fmt.Errorf("type %q must be 1-64 letters, digits, '_' or '-'", d.Type)
	}
	if !langPattern.MatchString(d.Lang) {
		return fmt.Errorf("lang %q is not a language code such as en-gb", d.Lang)
	}
	if len(d.UID) > 200 {
		return errors.New("uid is longer than 200 characters")
	}
	if d.ID == "" {
		if d.UID == "" {
			return errors.New("a document without a uid needs an id")
		}
		d.ID = derivedID(d.Type, d.Lang, d.UID)
	}
	if !docIDPattern.MatchString(d.ID) {
		return fmt.Errorf("id %q must be 1-64 letters, digits, '_' or '-'", d.ID)
	}
	data := bytes.TrimSpace(d.Data)
	if len(data) == 0 || bytes.Equal(data, []byte("null")) {
		data = []byte("{}")
	}
	if data[0] != '{' {
		return errors.New("data must be a JSON object")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, data); err != nil {
		return fmt.Errorf("data: %w", err)
	}
	if _, err := decodeData(buf.Bytes()); err != nil {
		return fmt.Errorf("data: %w", err)
	}
	d.Data = buf.Bytes()
	if d.Tags == nil {
		d.Tags = []string{}
	}
	return nil
}

// derivedID gives a stable, Prismic-looking ID to a document that has none.
func derivedID(typ, lang, uid string) string {
	sum := sha256.Sum256([]byte(typ + "\x00" + lang + "\x00" + uid))
	return base64.RawURLEncoding.EncodeToString(sum[:12])
}

func alternateIDs(alts []AlternateLanguage) []string {
	ids := make([]string, 0, len(alts))
	for _, a := range alts {
		if a.ID != "" {
			ids = append(ids, a.ID)
		}
	}
	return ids
}
