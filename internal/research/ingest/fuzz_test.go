package ingest_test

import (
	"bytes"
	"io"
	"os"
	"slices"
	"testing"

	"lineage/internal/research"
)

// FuzzRecordReader feeds arbitrary CSV and mapping files to the import reader: it must
// not panic, and whatever it returns must be whole records or errors with lines.
func FuzzRecordReader(f *testing.F) {
	tricky, _ := os.ReadFile(testdata("tricky.csv"))
	f.Add(tricky, []byte(nil))
	f.Add([]byte(header+"A,baptism,1850,X,,Smith,John,,,,,,\nA,,,,father,\"Sm\"\"ith\",,,,,,,\n,,\n"), []byte(nil))
	f.Add([]byte("Entry;Child;Surname\n1;John;Smith\n2;;\n3;\"Ann;Jones\n"),
		[]byte(`{"delimiter": ";", "fields": {"record_id": "Entry", "record_type": {"value": "baptism"}},
			"persons": [{"given_names": "Child", "surname": "Surname", "role": {"value": "principal"}}]}`))
	f.Add([]byte(header+"A,baptism,1850,\"X,,Smith,John,,,,,,\nB,baptism,1850,\"Y, Z\",,Smith,John,,,,,,\nC,baptism,1850,X,,Smith,\"John"), []byte(nil))
	f.Add([]byte(header+"A,baptism,1850,\"X\"Y,,Smith,John,,,\"a\r\nb\"\"c\",,,\n\"B,baptism\n"), []byte(nil))
	f.Add([]byte("record_id,\"record_type\ndate\",place,role,surname,given_names\n"), []byte(nil))
	f.Add([]byte("Ref,Family name\nA1,Brown\nA1,\xff\n"), []byte(`{"fields": {"record_id": "Ref", "surname": "Family name", "record_type": {"value": "x"}, "sex": {"value": "M", "map": {"M": "F"}}}}`))
	f.Fuzz(func(t *testing.T, data, mapping []byte) {
		var m *research.Mapping
		if len(mapping) > 0 {
			var err error
			if m, err = research.ParseMapping(bytes.NewReader(mapping)); err != nil {
				return
			}
		}
		rr, err := research.NewRecordReader(bytes.NewReader(data), m, research.CSVLimits{FieldLines: 5, RowBytes: 4096})
		if err != nil {
			return
		}
		for i := 0; i < 100_000; i++ {
			rec, errs, err := rr.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Fatalf("reader error on in-memory data: %v", err)
			}
			if (rec == nil) == (errs == nil) {
				t.Fatalf("want a record or errors: %+v %v", rec, errs)
			}
			for _, e := range errs {
				if e.Line < 2 || e.Message == "" {
					t.Fatalf("an error without a line after the header: %+v", e)
				}
			}
			if rec == nil {
				continue
			}
			if rec.Key == "" || rec.Type == "" || len(rec.Persons) == 0 || len(rec.Persons) > research.MaxPersons {
				t.Fatalf("an incomplete record: %+v", rec)
			}
			if len(rec.Lines) == 0 || rec.Lines[0] != rec.Line || !slices.IsSorted(rec.Lines) {
				t.Fatalf("lines %d %v", rec.Line, rec.Lines)
			}
			for _, p := range rec.Persons {
				if p.Surname == "" && p.GivenNames == "" {
					t.Fatalf("a nameless person: %+v", rec)
				}
				if p.Role == "" || (p.Sex != "" && p.Sex != "M" && p.Sex != "F" && p.Sex != "U") {
					t.Fatalf("role %q sex %q", p.Role, p.Sex)
				}
			}
		}
		t.Fatal("the reader did not end")
	})
}
