package ingest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"lineage/internal/research/index"
	"testing"
)

// jsonHash is the record hash as imports computed it before recordjson.go, with
// encoding/json: stored hashes must keep matching.
func jsonHash(r *index.RecordInput) string {
	b, _ := json.Marshal([]any{r.Type, r.Date, r.Place, r.Transcript, r.Source, r.Access, r.Images, r.Persons})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}

// checkRecordJSON fails unless the hand-written persons JSON, images JSON and hash of
// r are encoding/json's.
func checkRecordJSON(t *testing.T, r *index.RecordInput) {
	t.Helper()
	want, _ := json.Marshal(r.Persons)
	if got := appendPersonsJSON(nil, r.Persons); string(got) != string(want) {
		t.Errorf("persons:\n got %s\nwant %s", got, want)
	}
	want, _ = json.Marshal(r.Images)
	if got := appendStringsJSON(nil, r.Images); string(got) != string(want) {
		t.Errorf("images:\n got %s\nwant %s", got, want)
	}
	if got, want := recordHash(r, appendPersonsJSON(nil, r.Persons)), jsonHash(r); got != want {
		t.Errorf("hash %s, encoding/json's %s", got, want)
	}
}

func TestRecordJSON(t *testing.T) {
	for _, r := range []*index.RecordInput{
		{},
		{Type: "baptism", Date: "12 Mar 1850", Place: "St Mary, Guildford", Persons: []index.Person{{Role: "principal", Surname: "Smith", GivenNames: "John"}}},
		{Persons: []index.Person{}, Images: []string{}},
		{Transcript: `He said "Bill" & <Tom>\ left`, Images: []string{"a.jpg", "b&c.tif"},
			Persons: []index.Person{{Role: "father", Surname: "Müller", GivenNames: "Jürgen", Sex: "M", Age: "40"}, {Surname: "O'Brien", Age: "3 wks"}}},
		{Source: "tab\there\nnewline\x01", Access: "members", Place: "\u2028line\u2029sep", Date: "bad \xff utf-8"},
	} {
		checkRecordJSON(t, r)
	}
}

// FuzzRecordJSON: for any texts, the hand-written JSON and hash are encoding/json's.
func FuzzRecordJSON(f *testing.F) {
	f.Add("baptism", "1850", "Guildford", "Smith", "John", "M", "", "img.jpg")
	f.Add(`"<&>"`, "\x00\x1f", "\u2028", "Müller", "\xff\xfe", "", "12", "")
	f.Fuzz(func(t *testing.T, typ, date, place, surname, given, sex, age, image string) {
		r := &index.RecordInput{Type: typ, Date: date, Place: place, Transcript: given + surname, Source: place, Access: sex,
			Persons: []index.Person{{Role: typ, Surname: surname, GivenNames: given, Sex: sex, Age: age}, {Surname: age}}}
		if image != "" {
			r.Images = []string{image, date}
		}
		checkRecordJSON(t, r)
	})
}
