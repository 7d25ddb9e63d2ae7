package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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
	db := openData(t, data)
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

// A cron job's command reads its flags, then its own settings, and opens its store
// only when both are good: bad settings leave the data folder untouched.
func TestOpenJobOrder(t *testing.T) {
	ctx := context.Background()
	bad := errors.New("bad settings")
	settings := func() error { return bad }
	if _, _, _, err := openJob(ctx, "events run-due", []string{"--rate", "5"}, settings); err == nil || errors.Is(err, bad) {
		t.Errorf("an unknown flag and bad settings: %v, want the flag's error", err)
	}
	data := filepath.Join(t.TempDir(), "data")
	if _, _, _, err := openJob(ctx, "events run-due", []string{"--data", data}, settings); !errors.Is(err, bad) {
		t.Errorf("bad settings: %v", err)
	}
	if _, err := os.Stat(data); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the data folder after bad settings: %v, want none", err)
	}
	_, db, outbox, err := openJob(ctx, "events run-due", []string{"--data", data}, nil)
	if err != nil || outbox == nil {
		t.Fatalf("good settings: %v", err)
	}
	db.Close()
}
