package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"lineage/internal/store"
)

// jobData is a data folder for a test of a cron job's command, with its store open
// (the test closes it before the command runs) and mail going to files in it
// (<data>/mail). The environment names no Stripe account and the default reminders.
func jobData(t *testing.T) (context.Context, string, *store.DB) {
	t.Helper()
	ctx := context.Background()
	data := t.TempDir()
	for _, k := range []string{"LINEAGE_SMTP_HOST", "LINEAGE_STRIPE_SECRET_KEY", "LINEAGE_MEMBERSHIP_REMINDERS"} {
		t.Setenv(k, "")
	}
	db, err := store.Open(ctx, store.Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	return ctx, data, db
}

// runJob runs a command on the data folder and answers what it printed.
func runJob(ctx context.Context, data string, fn func(context.Context, []string, io.Writer) error, args ...string) (string, error) {
	var out bytes.Buffer
	err := fn(ctx, append([]string{"--data", data}, args...), &out)
	return out.String(), err
}

// A cron job's command takes the store's flags and nothing else.
func TestJobFlags(t *testing.T) {
	if _, err := jobFlags("events run-due", []string{"--data", t.TempDir(), "now"}); err == nil || err.Error() != "unexpected arguments: now" {
		t.Errorf("an argument: %v", err)
	}
	if _, err := jobFlags("events run-due", []string{"--rate", "5"}); err == nil || !strings.Contains(err.Error(), "rate") {
		t.Errorf("an unknown flag: %v", err)
	}
	dir := t.TempDir()
	cfgFn, err := jobFlags("events run-due", []string{"--data", dir})
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err := cfgFn(); err != nil || cfg.DataDir != dir {
		t.Errorf("--data: %+v %v", cfg, err)
	}
}
