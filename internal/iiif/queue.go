package iiif

import (
	"context"
	"errors"
	"sync"
)

// Why a render was refused a place in the queue.
var (
	errClientBusy = errors.New("this client has as many images being made as it may")
	errQueueFull  = errors.New("the render queue is full")
)

// renderQueue hands out a fixed number of render slots fairly between clients: each
// client waits in its own line, a freed slot goes to the next client in turn (round
// robin), and a client may have at most perClient renders running or waiting, so one
// client's flood fills only its own line and answers 429 to that client alone while
// everyone else's single requests are still taken in turn.
type renderQueue struct {
	mu        sync.Mutex
	free      int // idle slots
	perClient int // most renders one client may have running or waiting
	total     int // most renders waiting, all clients together
	waiting   int
	clients   map[string]*queueClient
	ring      []*queueClient // clients with someone waiting, in turn order
	next      int            // index in ring of the client served next
}

type queueClient struct {
	key     string
	active  int             // running and waiting
	waiters []chan struct{} // first come, first served within the client
}

func newRenderQueue(slots, perClient, total int) *renderQueue {
	return &renderQueue{free: max(1, slots), perClient: max(1, perClient), total: max(1, total), clients: map[string]*queueClient{}}
}

// acquire waits for a render slot for client, until ctx ends. The returned release
// gives the slot to the next client in turn; call it exactly once.
func (q *renderQueue) acquire(ctx context.Context, client string) (release func(), err error) {
	q.mu.Lock()
	c := q.clients[client]
	if c == nil {
		c = &queueClient{key: client}
		q.clients[client] = c
	}
	if c.active >= q.perClient {
		q.mu.Unlock()
		return nil, errClientBusy
	}
	if q.free > 0 && q.waiting == 0 {
		q.free--
		c.active++
		q.mu.Unlock()
		return q.releaser(c), nil
	}
	if q.waiting >= q.total {
		q.dropIdleLocked(c)
		q.mu.Unlock()
		return nil, errQueueFull
	}
	ch := make(chan struct{})
	c.waiters = append(c.waiters, ch)
	c.active++
	q.waiting++
	if len(c.waiters) == 1 {
		q.ring = append(q.ring, c)
	}
	q.mu.Unlock()

	select {
	case <-ch:
		return q.releaser(c), nil
	case <-ctx.Done():
	}
	q.mu.Lock()
	for i, w := range c.waiters {
		if w == ch {
			c.waiters = append(c.waiters[:i], c.waiters[i+1:]...)
			c.active--
			q.waiting--
			if len(c.waiters) == 0 {
				q.leaveRingLocked(c)
			}
			q.dropIdleLocked(c)
			q.mu.Unlock()
			return nil, ctx.Err()
		}
	}
	q.mu.Unlock()
	// Granted while giving up: pass the slot on.
	q.releaser(c)()
	return nil, ctx.Err()
}

func (q *renderQueue) releaser(c *queueClient) func() {
	var once sync.Once
	return func() { once.Do(func() { q.release(c) }) }
}

func (q *renderQueue) release(c *queueClient) {
	q.mu.Lock()
	defer q.mu.Unlock()
	c.active--
	q.dropIdleLocked(c)
	if q.waiting == 0 {
		q.free++
		return
	}
	i := q.next % len(q.ring)
	n := q.ring[i]
	ch := n.waiters[0]
	n.waiters = n.waiters[1:]
	q.waiting--
	if len(n.waiters) == 0 {
		q.ring = append(q.ring[:i], q.ring[i+1:]...)
		q.next = i // the client after it moved into its place
	} else {
		q.next = i + 1
	}
	close(ch)
}

// leaveRingLocked takes a client with no one waiting out of the turn order.
func (q *renderQueue) leaveRingLocked(c *queueClient) {
	for i, r := range q.ring {
		if r == c {
			q.ring = append(q.ring[:i], q.ring[i+1:]...)
			if i < q.next {
				q.next--
			}
			return
		}
	}
}

func (q *renderQueue) dropIdleLocked(c *queueClient) {
	if c.active == 0 && len(c.waiters) == 0 && q.clients[c.key] == c {
		delete(q.clients, c.key)
	}
}

// state reports a client's renders running or waiting, and all waiting.
func (q *renderQueue) state(client string) (active, waiting int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if c := q.clients[client]; c != nil {
		active = c.active
	}
	return active, q.waiting
}
