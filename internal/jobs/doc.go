// Package jobs runs a server's schedulers so that, of several instances on one
// database, exactly one runs each: a scheduler runs while its instance holds the
// scheduler's lease in the store (store.DB.AcquireLease), renewing it as it goes. When
// the holder stops cleanly it releases the lease and another instance takes over at its
// next try; when the holder dies the lease expires and another takes over within
// DefaultTTL + DefaultTTL/4 (25 s). docs/decisions/021-several-instances.md.
//
// A scheduler's own loop, and a worker's that every instance runs (the mail outbox),
// goes round with Repeat.
package jobs
