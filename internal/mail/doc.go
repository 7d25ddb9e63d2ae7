// Package mail delivers the site's own mail (verification links, password resets,
// email-change confirmations, reminders, booking confirmations with their calendar
// invitations, newsletters).
//
// Callers never talk to a mail server: they put a Message in the Outbox, a table in the
// store, and return. The Outbox's worker hands due messages to a Sender and retries
// failures with growing delays, so a slow or unreachable mail server never slows a
// request, a crash loses nothing, and several server instances can share one outbox.
//
// Two Senders exist: SMTPSender (wneessen/go-mail) when LINEAGE_SMTP_HOST is set, and
// DirSender otherwise, which writes each message as an .eml file under <data>/mail/ and
// logs it, so that a fresh installation without a mail server can still follow its links.
//
// A Message is plain text, optionally with an HTML alternative, an iCalendar
// invitation (a text/calendar alternative with its method, and an invite.ics
// attachment) and list headers (List-Unsubscribe and its RFC 8058 companion). Other
// header fields cannot be added. A 5xx answer from the mail server is final: the
// message is given up at once and marked rejected, and Rejections counts them per
// address for the lists that stop writing to addresses that bounce.
package mail
