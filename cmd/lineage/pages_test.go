package main

import (
	"context"
	"testing"

	"lineage/internal/pagegen"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

func TestChangesPages(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"content", "import", "dir"}, true},
		{[]string{"content", "export", "dir"}, false},
		{[]string{"content", "preview"}, false},
		{[]string{"import", "records", "--collection", "x", "f.csv"}, true},
		{[]string{"import", "images", "dir"}, true},
		{[]string{"import", "gedcom", "f.ged"}, true},
		{[]string{"demo", "generate"}, true},
		{[]string{"membership", "sync-stripe"}, true},
		{[]string{"membership", "run-due"}, false},
		{[]string{"user", "add"}, false},
		{[]string{"serve"}, false},
	} {
		if got := changesPages(tc.args[0], tc.args[1:]); got != tc.want {
			t.Errorf("%v: %v, want %v", tc.args, got, tc.want)
		}
	}
}

// TestCommandRaisesPageGeneration: a command that changes what anonymous visitors see
// raises the page generation of the store it worked on, which running servers watch.
func TestCommandRaisesPageGeneration(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			data, file := recordsInput(t, "b.csv", "B1,baptism,1850,Guildford,,Smith,John\n")
			opts := store.Options{DataDir: data}
			if dialect == "postgres" {
				url, err := storetest.NewPostgresDatabase()
				if err != nil {
					t.Fatal(err)
				}
				opts = store.Options{DatabaseURL: url}
			}
			t.Setenv("LINEAGE_DATABASE_URL", opts.DatabaseURL)
			ctx := context.Background()
			openedStores = nil
			args := []string{"records", "--data", opts.DataDir, "--collection", "baptisms", "--quiet", file}
			if err := runImport(ctx, args); err != nil {
				t.Fatal(err)
			}
			raisePageGeneration(ctx, "import", args)
			raisePageGeneration(ctx, "user", []string{"list"}) // not one of pageCommands

			db, err := store.Open(ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if n, err := pagegen.Current(ctx, db); err != nil || n != 1 {
				t.Fatalf("page generation %d, %v; want 1", n, err)
			}
		})
	}
}
