package staff

import "context"

// SetBatchDone makes fn run after each batch a records job writes.
func (s *Service) SetBatchDone(fn func(ctx context.Context)) { s.batchDone = fn }
