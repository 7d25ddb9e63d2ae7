package mailtest

import (
	"io"
	"mime/quotedprintable"
	"strings"
)

func decodeQP(s string) string {
	b, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(s)))
	if err != nil {
		return s
	}
	return string(b)
}
