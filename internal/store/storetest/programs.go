package storetest

// StopCluster stops the throwaway PostgreSQL cluster that NewPostgresDatabase started
// and removes its folder. Tests do not call it (Main does); programs that borrow the
// cluster outside `go test` (tools/cluster) call it on their way out.
func StopCluster() { stopCluster() }
