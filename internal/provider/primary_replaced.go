package provider

import (
	"sync"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// replacedPrimaries remembers, for one provider process, the primaries this run's plan replaces
// and the storage each replacement is planned with. Terraform plans a read-only instance after
// the primary it references; while the primary is replaced the read-only instance's
// master_instance_id is unknown, so its plan finds the primary by the id in its state.
type replacedPrimaries struct {
	mu      sync.Mutex
	storage map[string]rdsservice.Val[int64]
}

func (p *replacedPrimaries) record(id string, storage rdsservice.Val[int64]) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.storage == nil {
		p.storage = map[string]rdsservice.Val[int64]{}
	}
	p.storage[id] = storage
}

// lookup is the primary id's replacement, or nil when this run does not replace it.
func (p *replacedPrimaries) lookup(id string) *rdsservice.ReplacedPrimary {
	p.mu.Lock()
	defer p.mu.Unlock()
	storage, ok := p.storage[id]
	if !ok {
		return nil
	}
	return &rdsservice.ReplacedPrimary{ID: id, Storage: storage}
}
