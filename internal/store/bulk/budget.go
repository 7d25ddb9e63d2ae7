package bulk

import "time"

// TxBudget is how long, about, one transaction of a long job holds SQLite's write
// lock: a job whose batch takes longer writes it in several transactions, of as many
// items as the last ones wrote in that time (Budget), so that a sign-in waits for
// one of them at most. A smaller budget costs a bulk load its speed in the
// transactions' own costs; the measurements that chose it are in
// docs/decisions/011-house-plan.md ("Figures").
const TxBudget = 100 * time.Millisecond

// Budget is how many items (records, say) a long job writes in one transaction.
// On a database with one write lock, which a transaction holds to its end (SQLite),
// it adapts to the time the last transactions took (TxBudget); where writers of
// different rows do not wait for each other (PostgreSQL) it never splits a batch.
// Writer.Budget makes one.
type Budget struct {
	n       int
	bounded bool
}

// Take is how many of the n items left the next transaction writes.
func (b *Budget) Take(n int) int {
	if !b.bounded {
		return n
	}
	return min(n, b.n)
}

// Took adapts the size to the time d the last transaction took: half when it was
// over TxBudget, a quarter more (up to max) when under half of it.
func (b *Budget) Took(d time.Duration, max int) {
	switch {
	case d > TxBudget:
		b.n = (b.n + 1) / 2
	case d < TxBudget/2:
		b.n = min(max, b.n+b.n/4+1)
	}
}
