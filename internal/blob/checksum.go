package blob

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
)

// Checksum is the hex SHA-256 of an object: the one Put recorded when the store keeps
// it, otherwise read and computed.
func Checksum(ctx context.Context, st Store, key string) (string, error) {
	if info, err := st.Stat(ctx, key); err != nil {
		return "", err
	} else if info.SHA256 != "" {
		return info.SHA256, nil
	}
	return ReadChecksum(ctx, st, key)
}

// ReadChecksum reads an object whole and returns its hex SHA-256 and size.
func ReadChecksum(ctx context.Context, st Store, key string) (string, error) {
	rc, _, err := st.Get(ctx, key, Range{})
	if err != nil {
		return "", err
	}
	defer rc.Close()
	h := sha256.New()
	if _, err := io.Copy(h, readerCtx{ctx, rc}); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
