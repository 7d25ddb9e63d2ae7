package auth_test

import (
	"strings"
	"testing"

	"lineage/internal/auth"
)

func TestPasswordHash(t *testing.T) {
	h, err := auth.HashPassword("correct horse battery", auth.TestPasswordParams)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=64,t=1,p=1$") || strings.Count(h, "$") != 5 {
		t.Fatalf("PHC string %q", h)
	}
	if !auth.CheckPassword("correct horse battery", h) {
		t.Error("right password refused")
	}
	if auth.CheckPassword("correct horse batterY", h) {
		t.Error("wrong password accepted")
	}
	h2, _ := auth.HashPassword("correct horse battery", auth.TestPasswordParams)
	if h2 == h {
		t.Error("two hashes of one password are equal: no salt?")
	}
	for _, bad := range []string{"", "plain", "$argon2i$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
		"$argon2id$v=18$m=64,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA", "$argon2id$v=19$m=0,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
		"$argon2id$v=19$m=64,t=1,p=1$!!$aGFzaA", "$argon2id$v=19$m=99999999,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"} {
		if auth.CheckPassword("x", bad) {
			t.Errorf("CheckPassword accepted %q", bad)
		}
	}
}

// A hash made by the reference implementation (the argon2 CLI of phc-winner-argon2,
// Debian package "argon2": echo -n password | argon2 somesalt -id -t 2 -m 6 -p 1 -l 32 -e)
// must verify, so that hashes move between implementations.
func TestPasswordHashInterop(t *testing.T) {
	const phc = "$argon2id$v=19$m=64,t=2,p=1$c29tZXNhbHQ$FqGkmHNGCd0BRW2kBt6fPZ2pPmyGwwChL8FGUhTOSSI"
	if !auth.CheckPassword("password", phc) {
		t.Fatal("the reference implementation's hash does not verify")
	}
	if auth.CheckPassword("Password", phc) {
		t.Fatal("a wrong password verifies against the reference hash")
	}
}
