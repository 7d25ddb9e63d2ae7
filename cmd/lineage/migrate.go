package main

import (
	"context"
	"fmt"

	"lineage/internal/config"
)

func runMigrate(ctx context.Context, args []string) error {
	fs := newFlags("migrate", "[--data DIR]")
	cfgFn := config.DataFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	_, db, err := openStore(ctx, cfgFn)
	if err != nil {
		return err
	}
	defer db.Close()
	status, err := db.MigrationStatus(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("%s database at %s is up to date:\n", db.Dialect, db.Where)
	for _, s := range status {
		fmt.Println("  " + s)
	}
	return nil
}
