package newsletter

import (
	"context"
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

// Run is the scheduler: every tick it does RunDue; while an edition is being sent it
// comes back every few seconds, enqueuing at most Rate messages a minute.
func (s *Service) Run(ctx context.Context, tick time.Duration) {
	const step = 5 * time.Second
	for {
		budget := s.opt.Rate * int(step/time.Second) / 60
		rep, err := s.RunDue(ctx, max(budget, 1))
		if err != nil && ctx.Err() == nil {
			s.log.Error("newsletter", "err", err)
		}
		wait := tick
		if rep.Sending && step < wait {
			wait = step
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}
