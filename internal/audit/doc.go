// Package audit is the log of what staff do: who (the account, with the name and
// address it had then), what (an action's name), on what (a subject such as
// "user:7"), when, and the subject's state before and after, as JSON. Rooms that
// act for staff write an entry per action (Add, or AddTx inside the action's own
// transaction); admins read it page by page with filters and export it as CSV
// (internal/staff serves both). Entries are never changed or deleted by the
// application.
package audit
