package main

import (
	"context"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"lineage/internal/audit"
	"lineage/internal/auth"
)

// userCommand runs `lineage user ARGS --data data` and answers what it printed.
func userCommand(t *testing.T, data string) func(args ...string) (string, error) {
	return func(args ...string) (string, error) {
		return captureStdout(t, func() error { return runUser(context.Background(), append(args, "--data", data)) })
	}
}

// captureStdout runs fn with os.Stdout sent to a pipe and returns what it printed.
func captureStdout(t *testing.T, fn func() error) (string, error) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	runErr := fn()
	w.Close()
	os.Stdout = old
	return <-done, runErr
}

func TestUserCommand(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	run := userCommand(t, data)

	out, err := run("add", "--email", "Ada@Example.org", "--password", "correct horse", "--name", "Ada", "--role", "editor")
	if err != nil || !strings.Contains(out, "<ada@example.org> as editor") {
		t.Fatalf("add: %q %v", out, err)
	}
	if out, err := run("list"); err != nil || !strings.Contains(out, "ada@example.org") || !strings.Contains(out, "editor") {
		t.Fatalf("list: %q %v", out, err)
	}
	if out, err := run("set-role", "--email", "ada@example.org", "--role", "admin"); err != nil || !strings.Contains(out, "is now admin") {
		t.Fatalf("set-role: %q %v", out, err)
	}
	// --role member, as before memberships: a registered account with a complimentary
	// membership, so its scope has "member".
	out, err = run("add", "--email", "mem@example.org", "--password", "correct horse", "--role", "member")
	if err != nil || !strings.Contains(out, "as registered") || !strings.Contains(out, "membership M-000001 of Honorary is complimentary") {
		t.Fatalf("add --role member: %q %v", out, err)
	}
	out, err = run("add", "--email", "reg@example.org", "--password", "correct horse", "--role", "registered")
	if err != nil || strings.Contains(out, "membership") {
		t.Fatalf("add --role registered: %q %v", out, err)
	}
	db := openData(t, data)
	accounts := auth.New(db, auth.Options{})
	newMembership(db, accounts)
	for email, want := range map[string]bool{"mem@example.org": true, "reg@example.org": false} {
		u, err := accounts.UserByEmail(ctx, email)
		if err != nil || slices.Contains(u.Scope, "member") != want {
			t.Errorf("%s: scope %v %v", email, u.Scope, err)
		}
	}
	db.Close()
	if out, err := run("delete", "--email", "ada@example.org"); err != nil || !strings.Contains(out, "deleted user") {
		t.Fatalf("delete: %q %v", out, err)
	}
	// What the operator did is in the audit log, as the command line.
	db = openData(t, data)
	es, _, err := audit.New(db, nil).List(ctx, audit.Filter{Action: "user."})
	db.Close()
	if err != nil || len(es) != 5 || es[0].Action != "user.delete" || es[1].Action != "user.add" || es[3].Action != "user.role" ||
		string(es[3].Before) != `{"role":"editor"}` || string(es[3].After) != `{"role":"admin"}` || es[3].Actor == nil || es[3].Actor.Name != "command line" || es[3].ActorID != nil {
		t.Errorf("audit: %+v %v", es, err)
	}
	if out, _ := run("list"); strings.Contains(out, "ada@example.org") {
		t.Fatalf("deleted user still listed: %q", out)
	}

	bad := []struct {
		name string
		args []string
	}{
		{"ErrNoEmail", []string{"add", "--password", "correct horse"}},
		{"ErrShortPassword", []string{"add", "--email", "b@example.org", "--password", "short"}},
		{"ErrUnknownRole", []string{"add", "--email", "b@example.org", "--password", "correct horse", "--role", "king"}},
		{"ErrDuplicate", []string{"add", "--email", "c@example.org", "--password", "correct horse"}},
		{"ErrNotFound", []string{"delete", "--email", "nobody@example.org"}},
		{"ErrUnknownSubcommand", []string{"promote"}},
		{"ErrNameLineBreak", []string{"add", "--email", "d@example.org", "--password", "correct horse", "--name", "X\r\nBcc: evil@evil.com"}},
		{"ErrNameEscape", []string{"add", "--email", "d@example.org", "--password", "correct horse", "--name", "X\x1b[2J"}},
	}
	if _, err := run("add", "--email", "c@example.org", "--password", "correct horse"); err != nil {
		t.Fatal(err)
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := run(tt.args...); err == nil {
				t.Fatalf("lineage user %v: want an error", tt.args)
			}
		})
	}
}

// TestUserListEscapesNames: a name stored before names were checked (written here
// straight into the table) is listed escaped, on its own row.
func TestUserListEscapesNames(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	run := userCommand(t, data)
	if _, err := run("add", "--email", "ada@example.org", "--password", "correct horse", "--name", "Ada"); err != nil {
		t.Fatal(err)
	}
	db := openData(t, data)
	if _, err := db.ExecContext(ctx, `UPDATE users SET name = ?`, "X\r\nBcc: evil@evil.com\x1b[2J"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	out, err := run("list")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.Contains(lines[1], `X\r\nBcc: evil@evil.com\x1b[2J`) || strings.ContainsAny(out, "\r\x1b") {
		t.Fatalf("list printed %q", out)
	}
}
