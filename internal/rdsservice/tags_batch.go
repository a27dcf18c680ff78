package rdsservice

import (
	"context"
	"sync"

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// TagReader batches the tag reads of concurrent refreshes. Terraform refreshes many instances at
// once (-parallelism, 10 by default); a read that arrives while a ListTagResources is in flight
// waits for it and then goes out together with every read that arrived meanwhile, up to 50 ids
// per call. There is no timer: a lone read goes out at once, so batching never delays a refresh
// of one instance. The zero value is ready to use.
type TagReader struct {
	mu    sync.Mutex
	busy  bool
	queue []*tagRead
}

type tagRead struct {
	id   string
	done chan struct{}
	tags map[string]string
	err  error
}

// Read returns the instance's tags (the provider's own left out). The caller that finds no call in
// flight sends the calls for everything queued until the queue is empty.
func (r *TagReader) Read(ctx context.Context, api rdsapi.API, id string) (map[string]string, error) {
	w := &tagRead{id: id, done: make(chan struct{})}
	r.mu.Lock()
	r.queue = append(r.queue, w)
	sender := !r.busy
	r.busy = true
	r.mu.Unlock()
	if sender {
		r.send(ctx, api)
	}
	select {
	case <-w.done:
		return w.tags, w.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// send takes up to 50 queued reads per ListTagResources until none is left.
func (r *TagReader) send(ctx context.Context, api rdsapi.API) {
	for {
		r.mu.Lock()
		if len(r.queue) == 0 {
			r.busy = false
			r.mu.Unlock()
			return
		}
		batch := r.queue[:min(len(r.queue), rdsapi.MaxTagResourcesPerCall)]
		r.queue = r.queue[len(batch):]
		r.mu.Unlock()
		var ids []string
		seen := map[string]bool{}
		for _, w := range batch {
			if !seen[w.id] {
				seen[w.id] = true
				ids = append(ids, w.id)
			}
		}
		tags, err := ReadTags(ctx, api, ids)
		for _, w := range batch {
			w.tags, w.err = tags[w.id], err
			close(w.done)
		}
	}
}

// Queued is the number of reads waiting for a call (for tests that line reads up).
func (r *TagReader) Queued() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.queue)
}
