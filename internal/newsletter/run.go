package newsletter

import (
	"context"
	"sync"
	"time"
)

// RunReport says what one pass of RunDue did.
type RunReport struct {
	Enqueued int // edition messages
	Sending  bool
	Match    MatchReport
	Digests  int
}

// RunDue does the room's due work once: the next batch of the editions being sent
// (at most budget messages), matching new items against alerts, and the due digests.
func (s *Service) RunDue(ctx context.Context, budget int) (RunReport, error) {
	var rep RunReport
	var err error
	if rep.Enqueued, rep.Sending, err = s.SendDue(ctx, budget); err != nil {
		return rep, err
	}
	if rep.Match, err = s.MatchAlerts(ctx); err != nil {
		return rep, err
	}
	rep.Digests, err = s.SendDigests(ctx)
	return rep, err
}

// sendStep is how often the scheduler comes back while an edition is being sent.
const sendStep = 5 * time.Second

// Run is the scheduler, until ctx ends. Editions and alerts have a loop each, so that
// matching a large import does not hold up an edition: every tick each does its due
// work; while an edition is being sent its loop comes back every few seconds, putting
// at most Rate messages a minute in the outbox.
func (s *Service) Run(ctx context.Context, tick time.Duration) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for {
			budget := max(s.opt.Rate*int(sendStep/time.Second)/60, 1)
			_, sending, err := s.SendDue(ctx, budget)
			if err != nil && ctx.Err() == nil {
				s.log.Error("newsletter: editions", "err", err)
			}
			wait := tick
			if sending && sendStep < wait {
				wait = sendStep
			}
			if !sleep(ctx, wait) {
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		for {
			if _, err := s.MatchAlerts(ctx); err != nil && ctx.Err() == nil {
				s.log.Error("newsletter: alerts", "err", err)
			} else if _, err := s.SendDigests(ctx); err != nil && ctx.Err() == nil {
				s.log.Error("newsletter: digests", "err", err)
			}
			if !sleep(ctx, tick) {
				return
			}
		}
	}()
	wg.Wait()
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
