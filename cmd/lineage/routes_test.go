package main

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"lineage/internal/auth/authtest"
	"lineage/internal/events/eventstest"
	"lineage/internal/httpx"
	"lineage/internal/research/researchtest"
)

// TestRouteAccess holds the route table to its access column: every route that is not
// public answers an anonymous caller 401 (the webhook, signed by Stripe, refuses what
// is not: 503 here, where no webhook secret is set), and no public route does.
func TestRouteAccess(t *testing.T) {
	_, _, _, a, srv := startSite(t, t.TempDir())
	wildcard := regexp.MustCompile(`\{[a-z_]+(\.\.\.)?\}`)
	for _, rm := range a.routes() {
		for _, rt := range rm.Routes {
			method, path, ok := strings.Cut(rt.Pattern, " ")
			if !ok {
				method, path = "GET", rt.Pattern
			}
			path = wildcard.ReplaceAllString(strings.TrimSuffix(path, "{$}"), "1")
			res, body := send(t, http.DefaultClient, method, srv.URL+path, "", strings.NewReader(`{}`))
			switch rt.Access {
			case httpx.Public:
				if res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusForbidden {
					t.Errorf("%s (public): %d %s", rt.Pattern, res.StatusCode, body)
				}
			case httpx.Stripe:
				if res.StatusCode != http.StatusServiceUnavailable {
					t.Errorf("%s (stripe): %d %s", rt.Pattern, res.StatusCode, body)
				}
			default:
				if res.StatusCode != http.StatusUnauthorized {
					t.Errorf("%s (%s) anonymously: %d %s, want 401", rt.Pattern, rt.Access, res.StatusCode, body)
				}
			}
		}
	}
}

// TestTestRoomsAreTheTable: the rooms other packages' tests serve (authtest,
// researchtest) are the table's, route for route.
func TestTestRoomsAreTheTable(t *testing.T) {
	_, _, _, a, _ := startSite(t, t.TempDir())
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	shape := func(rm httpx.Room) []string {
		var out []string
		for _, rt := range rm.Routes {
			out = append(out, rt.Pattern)
		}
		out = append(out, "fallback:")
		out = append(out, rm.Fallback...)
		return append(out, fmt.Sprint("session: ", rm.Session != nil))
	}
	table := map[string]httpx.Room{}
	for _, rm := range a.routes() {
		if _, dup := table[rm.Name]; !dup {
			table[rm.Name] = rm
		}
	}
	for _, rm := range []httpx.Room{authtest.AuthRoom(a.accounts, quiet), authtest.MembersRoom(a.members, a.accounts.Middleware, quiet),
		researchtest.Room(a.research, a.accounts.Middleware, quiet), eventstest.Room(a.events, a.accounts.Middleware, quiet)} {
		if got, want := shape(rm), shape(table[rm.Name]); !slices.Equal(got, want) {
			t.Errorf("authtest's %s room:\n%q\nthe table's:\n%q", rm.Name, got, want)
		}
	}
}
