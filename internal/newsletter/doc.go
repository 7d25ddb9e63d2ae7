// Package newsletter is the society's mailing lists and the members' alerts: lists an
// admin edits, subscribers who confirm their address before anything is sent to it
// (double opt-in), the consent each gave (list, time, page, words shown), preferences
// and one-click unsubscribe (RFC 8058) from a signed link without signing in, editions
// composed from a content document of type newsletter and sent through the mail
// outbox at a rate, and alerts that turn a member's saved searches into one digest of
// the new matches after records are imported.
//
// Sending an edition claims one newsletter_deliveries row per recipient in the same
// transaction as the recipient's outbox row, so a restart in the middle of an edition
// sends nobody the same edition twice: the outbox delivers what was enqueued, and the
// next batch starts after the recipients already claimed.
//
// Alerts are matched off the request path (Run, and `lineage newsletter run-due`) with
// the search engine of each saved search's kind, declared by the caller as a Finder:
// a match is a result of running the saved search, as its member, that is among the
// items imported since the last run. docs/newsletter.md has the whole room.
package newsletter
