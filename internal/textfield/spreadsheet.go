package textfield

import "strings"

// SpreadsheetSafe keeps a spreadsheet from reading a CSV cell as a formula: a cell
// that begins with = + - @, a tab or a carriage return gets a leading apostrophe.
func SpreadsheetSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
