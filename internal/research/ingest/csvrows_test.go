package ingest_test

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"lineage/internal/research"
)

// readAll reads every record of a CSV: the keys of the records read and the errors
// reported, "line: message".
func readAll(t *testing.T, csv string, lim research.CSVLimits) (keys []string, errs []string) {
	t.Helper()
	rr, err := research.NewRecordReader(strings.NewReader(csv), nil, lim)
	if err != nil {
		t.Fatalf("NewRecordReader: %v", err)
	}
	for {
		rec, rowErrs, err := rr.Next()
		if errors.Is(err, io.EOF) {
			return keys, errs
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec != nil {
			keys = append(keys, rec.Key)
		}
		for _, e := range rowErrs {
			errs = append(errs, fmt.Sprintf("%d: %s", e.Line, e.Message))
		}
	}
}

const goodRow = ",baptism,1850,Guildford,principal,Smith,John,,,,,,\n"

// TestCSVQuotes: a quote that is never closed is an error at the
// line where its field began, its record alone is skipped, and every later record is
// read; quoted fields that are closed may span lines.
func TestCSVQuotes(t *testing.T) {
	tests := []struct {
		name string
		rows string // after the header (line 1); line 2 is A1
		lim  research.CSVLimits
		keys []string
		errs []string // "line: part of the message", in order
	}{
		{"an unclosed quote mid-file",
			"A1" + goodRow + `A2,baptism,1850,"Guildford,principal,Smith,Mary,,,,,,` + "\nA3" + goodRow + "A4" + goodRow, research.CSVLimits{},
			[]string{"A1", "A3", "A4"}, []string{"3: a quoted field begins on this line and is not closed before the end of the file"}},
		{"an unclosed quote that meets a later quoted field",
			"A1" + goodRow + `A2,baptism,1850,"Guildford,principal,Smith,Mary,,,,,,` + "\n" + `A3,baptism,1851,"Guildford, Surrey",principal,Smith,Anne,,,,,,` + "\nA4" + goodRow, research.CSVLimits{},
			[]string{"A1", "A3", "A4"}, []string{"3: a quoted field begins on this line and runs on to line 4 past a quote that is not doubled"}},
		{"a stray quote after a closed one, the field closed on a later row in the same column",
			"A1" + goodRow + `A2,baptism,1850,"Guild"ford,principal,Smith,Mary,,,,,,` + "\n" + `A3,baptism,1851,"Guildford, Surrey",principal,Smith,Anne,,,,,,` + "\nA4" + goodRow, research.CSVLimits{},
			[]string{"A1", "A3", "A4"}, []string{"3: a quoted field begins on this line and runs on to line 4 past a quote"}},
		{"an unclosed quote on the last line, without a line ending",
			"A1" + goodRow + "A2" + goodRow + `A3,baptism,1850,Guildford,principal,Smith,"Mary,,,,,,`, research.CSVLimits{},
			[]string{"A1", "A2"}, []string{"4: a quoted field begins on this line and is not closed before the end of the file"}},
		{"an unclosed quote in the record_id: the records either side may own the row",
			"A1" + goodRow + `"A2,baptism,1850,Guildford,principal,Smith,Mary,,,,,,` + "\nA3" + goodRow + "A4" + goodRow, research.CSVLimits{},
			[]string{"A4"}, []string{"2: skipped: the row after it (line 3)", "3: a quoted field begins on this line and is not closed", "4: skipped: the row before it"}},
		{"a quote inside an unquoted field is kept",
			"A1" + goodRow + `A2,baptism,1850,Guildford,principal,O"Brien,Mary,,,,,,` + "\n", research.CSVLimits{},
			[]string{"A1", "A2"}, nil},
		{"a transcript over several lines, with doubled quotes",
			"A1" + goodRow + "A2,baptism,1850,Guildford,principal,Smith,Mary,,,\"line one\nline \"\"two\"\"\nline three\",,,\nA3" + goodRow, research.CSVLimits{},
			[]string{"A1", "A2", "A3"}, nil},
		{"a field over more lines than the limit",
			"A1" + goodRow + "A2,baptism,1850,Guildford,principal,Smith,Mary,,,\"1\n2\n3\n4\",,,\nA3" + goodRow, research.CSVLimits{FieldLines: 3},
			[]string{"A1", "A3"}, []string{"3: a quoted field begins on this line and is not closed within 3 lines", "4: has 1 fields", "5: has 1 fields", "6: has 4 fields"}},
		{"a row over several lines with too few fields",
			"A1" + goodRow + "A2,baptism,1850,Guildford,principal,Smith,Mary,,,\"one\ntwo\",,\nA3" + goodRow, research.CSVLimits{},
			[]string{"A1", "A3"}, []string{"3: a quoted field begins on this line and runs on to line 4, making a row of 12 fields where the header has 13", "4: has 3 fields"}},
		{"a row longer than the limit",
			"A1" + goodRow + "A2,baptism,1850,Guildford,principal,Smith,Mary,,," + strings.Repeat("x", 300) + ",,,\nA3" + goodRow, research.CSVLimits{RowBytes: 200},
			[]string{"A1", "A3"}, []string{"3: is longer than 200 bytes"}},
		{"a last line one byte over the limit, without a line ending",
			"A1" + goodRow + "A2,baptism,1850,Guildford,principal,Smith,Mary,,," + strings.Repeat("x", 150), research.CSVLimits{RowBytes: 198},
			[]string{"A1"}, []string{"3: is longer than 198 bytes"}},
		{"a quoted field running past the row limit",
			"A1" + goodRow + "A2,baptism,1850,Guildford,principal,Smith,Mary,,,\"" + strings.Repeat("x", 150) + "\n" + strings.Repeat("y", 150) + "\",,,\nA3" + goodRow, research.CSVLimits{RowBytes: 200},
			[]string{"A1", "A3"}, []string{"3: a quoted field begins on this line and runs on past 200 bytes", "4: has 4 fields"}},
		{"too many fields",
			"A1" + goodRow + "A2,baptism,1850,Guildford,principal,Smith,Mary,,,,,,,extra\nA3" + goodRow, research.CSVLimits{},
			[]string{"A1", "A3"}, []string{"3: has 14 fields, the header has 13"}},
		{"a transcript over the field limit",
			"A1" + goodRow + "A2,baptism,1850,Guildford,principal,Smith,Mary,,," + strings.Repeat("x", 100_001) + ",,,\nA3" + goodRow, research.CSVLimits{},
			[]string{"A1", "A3"}, []string{"3: transcript is longer than 100000 characters"}},
		{"CRLF line endings, blank lines",
			"A1" + strings.ReplaceAll(goodRow, "\n", "\r\n") + "\r\n\nA2,baptism,1850,Guildford,principal,Smith,Mary,,,\"one\r\ntwo\",,,\r\n", research.CSVLimits{},
			[]string{"A1", "A2"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			keys, errs := readAll(t, header+tc.rows, tc.lim)
			if !slices.Equal(keys, tc.keys) {
				t.Errorf("records %v, want %v (errors %q)", keys, tc.keys, errs)
			}
			if len(errs) != len(tc.errs) {
				t.Fatalf("errors %q, want %q", errs, tc.errs)
			}
			for i := range errs {
				if !strings.HasPrefix(errs[i], tc.errs[i]) {
					t.Errorf("error %d: %q, want %q…", i, errs[i], tc.errs[i])
				}
			}
		})
	}
}

// TestCSVHeaderQuotes: the header is one line; a quote left open in it is an error of
// the file, naming line 1.
func TestCSVHeaderQuotes(t *testing.T) {
	for name, csv := range map[string]string{
		"unclosed":               `record_id,"record_type,date,place,role,surname,given_names` + "\nA1,baptism,1850,Guildford,principal,Smith,John\n",
		"closed on a later line": "record_id,\"record\n_type\",date,place,role,surname,given_names\nA1,baptism,1850,Guildford,principal,Smith,John\n",
	} {
		_, err := research.NewRecordReader(strings.NewReader(csv), nil, research.CSVLimits{})
		if err == nil || !strings.Contains(err.Error(), "header: line 1: a quoted field begins on this line and is not closed on it") {
			t.Errorf("%s: %v", name, err)
		}
	}
	// The transcript the line ending belongs to is read whole.
	rr, err := research.NewRecordReader(strings.NewReader(header+"A1,baptism,1850,,principal,Smith,John,,,\"a\r\nb\",,,\n"), nil, research.CSVLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if rec, _, err := rr.Next(); err != nil || rec == nil || rec.Transcript != "a\nb" {
		t.Errorf("%+v %v", rec, err)
	}
}
