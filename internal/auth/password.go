package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// PasswordParams are the argon2id costs. Hashes record their own parameters, so
// raising them later only affects new hashes (and old ones are rehashed at sign-in).
type PasswordParams struct {
	Memory  uint32 // KiB
	Time    uint32 // passes
	Threads uint8
	KeyLen  uint32
	SaltLen uint32
}

// DefaultPasswordParams: 64 MiB, 2 passes, 2 lanes — about 100 ms on a small server,
// within the range RFC 9106 and OWASP recommend.
var DefaultPasswordParams = PasswordParams{Memory: 64 * 1024, Time: 2, Threads: 2, KeyLen: 32, SaltLen: 16}

// TestPasswordParams are cheap parameters for tests only.
var TestPasswordParams = PasswordParams{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}

// HashPassword returns the PHC string of password:
// $argon2id$v=19$m=65536,t=2,p=2$<salt>$<hash> (unpadded standard base64).
func HashPassword(password string, p PasswordParams) (string, error) {
	salt := make([]byte, p.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.Memory, p.Time, p.Threads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key)), nil
}

var errBadHash = errors.New("auth: not an argon2id PHC string")

// parseHash splits a PHC string into its parameters, salt and key.
func parseHash(phc string) (PasswordParams, []byte, []byte, error) {
	var p PasswordParams
	parts := strings.Split(phc, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return p, nil, nil, errBadHash
	}
	var v int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &v); err != nil || v != argon2.Version {
		return p, nil, nil, errBadHash
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil {
		return p, nil, nil, errBadHash
	}
	if p.Memory == 0 || p.Time == 0 || p.Threads == 0 || p.Memory > 4<<20 || p.Time > 100 {
		return p, nil, nil, errBadHash
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil || len(salt) < 8 {
		return p, nil, nil, errBadHash
	}
	key, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil || len(key) < 16 || len(key) > 128 {
		return p, nil, nil, errBadHash
	}
	p.SaltLen, p.KeyLen = uint32(len(salt)), uint32(len(key))
	return p, salt, key, nil
}

// CheckPassword reports whether password matches the PHC string, in constant time.
func CheckPassword(password, phc string) bool {
	p, salt, key, err := parseHash(phc)
	if err != nil {
		return false
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	return subtle.ConstantTimeCompare(got, key) == 1
}

// needsRehash reports whether phc was made with other parameters than p.
func needsRehash(phc string, p PasswordParams) bool {
	q, _, _, err := parseHash(phc)
	return err != nil || q.Memory != p.Memory || q.Time != p.Time || q.Threads != p.Threads || q.KeyLen != p.KeyLen
}
