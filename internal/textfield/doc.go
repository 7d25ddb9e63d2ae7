// Package textfield is the one rule for what a text field people type may hold: names,
// titles and summaries are single lines; notes and descriptions may have line breaks;
// neither may hold other control characters.
//
// A value with a line break or a control character can break whatever is built from it
// line by line (a mail's headers or its plain-text body, a terminal listing, a CSV or
// GEDCOM export), and PostgreSQL refuses NUL and invalid UTF-8 outright, so every room
// that stores such a field checks it with SingleLine or MultiLine before writing, and
// answers a rejected value with its own 422 field error. Escape is for printing values
// that were stored before the rule existed.
//
// It is a leaf package: no internal imports.
package textfield
