package iiif

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"lineage/internal/research"
	"lineage/internal/research/demo"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// TestDemoScansAgreeWithRecords loads the demo records and every demo scan (drawn small)
// as serve --demo does: a scan's label and name name no year its record lacks, and a
// register names its record's place and year.
func TestDemoScansAgreeWithRecords(t *testing.T) {
	year := regexp.MustCompile(`\b1[0-9]{3}\b`)
	items := DemoItems()
	for i := range items {
		items[i].Pages = slices.Clone(items[i].Pages)
		for j := range items[i].Pages {
			items[i].Pages[j].Width, items[i].Pages[j].Height = 96, 64
		}
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if err := demo.Load(ctx, research.New(db, research.Options{Log: quietLog()}), 300, 1, nil); err != nil {
			t.Fatal(err)
		}
		svc := New(db, Options{DataDir: t.TempDir(), Log: quietLog()})
		if _, err := svc.LoadDemo(ctx, items, ""); err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			row, err := itemBySlug(ctx, db, it.Slug)
			if err != nil {
				t.Fatalf("demo scan %s: %v", it.Slug, err)
			}
			var date, place string
			if err := db.QueryRowContext(ctx, db.Rebind(`SELECT date_text, place_text FROM records WHERE id = ?`), row.TargetID).Scan(&date, &place); err != nil {
				t.Fatalf("the record of demo scan %s: %v", it.Slug, err)
			}
			recordYears := year.FindAllString(date, -1)
			for _, y := range year.FindAllString(row.Label, -1) {
				if !slices.Contains(recordYears, y) {
					t.Errorf("demo scan %s is %q, but its record is of %q, %q", it.Slug, row.Label, date, place)
				}
			}
			if it.Title != "" && (len(recordYears) == 0 || !strings.Contains(row.Label, recordYears[0]) || place == "" || !strings.Contains(row.Label, place)) {
				t.Errorf("register %s is %q, which does not name its record's place and year (%q, %q)", it.Slug, row.Label, date, place)
			}
			if y := year.FindString(it.Slug); y != "" && !slices.Contains(recordYears, y) {
				t.Errorf("demo scan %s is attached to a record of %q", it.Slug, date)
			}
		}
	})
}
