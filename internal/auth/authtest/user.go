package authtest

import (
	"context"
	"strings"
	"testing"

	"lineage/internal/auth"
)

// User makes a verified account on a, named after the address's local part and with
// role ("" for none), and answers its id and a bearer token for it.
func User(t testing.TB, a *auth.Service, email, role string) (int64, string) {
	t.Helper()
	ctx := context.Background()
	u, err := a.CreateUser(ctx, auth.NewUser{Email: email, Name: strings.Split(email, "@")[0], Role: role, Verified: true})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := a.IssueTokens(ctx, u.ID, "test")
	if err != nil {
		t.Fatal(err)
	}
	return u.ID, tok.AccessToken
}
