package newsletter

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
)

// Purposes of the room's signatures: a signature of one purpose never passes for another.
const (
	purposeConfirm = "confirm"
	purposePrefs   = "preferences"
)

func (s *Service) sign(ctx context.Context, purpose, msg string) ([]byte, error) {
	key, err := s.installationSecret(ctx)
	if err != nil {
		return nil, err
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(purpose + "\x00" + msg))
	return m.Sum(nil), nil
}

// newConfirmToken returns a random confirmation token and what is stored of it (its
// signature, so a copy of the table confirms nothing).
func (s *Service) newConfirmToken(ctx context.Context) (token, stored string, err error) {
	b := make([]byte, 24)
	rand.Read(b)
	token = base64.RawURLEncoding.EncodeToString(b)
	stored, err = s.confirmHash(ctx, token)
	return token, stored, err
}

func (s *Service) confirmHash(ctx context.Context, token string) (string, error) {
	sig, err := s.sign(ctx, purposeConfirm, token)
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(sig), nil
}

// PreferencesToken is the signed token of a subscriber's preferences link and
// one-click unsubscribe: "<id>.<signature of id and address>". It does not expire
// (a newsletter read a year later must still unsubscribe) and changes nothing by
// itself.
func (s *Service) PreferencesToken(ctx context.Context, id int64, email string) (string, error) {
	sig, err := s.sign(ctx, purposePrefs, strconv.FormatInt(id, 10)+"\x00"+addressKey(email))
	if err != nil {
		return "", err
	}
	return strconv.FormatInt(id, 10) + "." + base64.RawURLEncoding.EncodeToString(sig[:18]), nil
}

// ParsePreferencesToken splits a preferences token into the subscriber id and the
// signature; it checks the form only (the signature is checked against the
// subscriber's address by subscriberByToken).
func ParsePreferencesToken(tok string) (id int64, sig []byte, ok bool) {
	i := strings.IndexByte(tok, '.')
	if i <= 0 || i > 19 || len(tok) > 64 {
		return 0, nil, false
	}
	id, err := strconv.ParseInt(tok[:i], 10, 64)
	if err != nil || id <= 0 || tok[:i] != strconv.FormatInt(id, 10) {
		return 0, nil, false
	}
	sig, err = base64.RawURLEncoding.DecodeString(tok[i+1:])
	if err != nil || len(sig) != 18 {
		return 0, nil, false
	}
	return id, sig, true
}
