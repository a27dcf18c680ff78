package provider

import (
	"sync"

	"github.com/openrds/terraform-provider-rds/internal/rdsservice"
)

// plannedStorage remembers, for one provider process, the storage this run's plan gives each
// primary. Terraform plans a read-only instance after the primary it references, so the read-only
// instance's plan checks its storage against the primary's planned one (rdsservice
// readonly_storage.go and primary_replaced.go).
type plannedStorage struct {
	mu      sync.Mutex
	storage map[string]rdsservice.Val[int64]
}

func (p *plannedStorage) record(id string, storage rdsservice.Val[int64]) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.storage == nil {
		p.storage = map[string]rdsservice.Val[int64]{}
	}
	p.storage[id] = storage
}

// get is the primary id's planned storage; false when this run has not planned it.
func (p *plannedStorage) get(id string) (rdsservice.Val[int64], bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	storage, ok := p.storage[id]
	return storage, ok
}

// replacedPrimaries are the primaries this run's plan replaces and the storage each replacement is
// planned with. While the primary is replaced the read-only instance's master_instance_id is
// unknown, so its plan finds the primary by the id in its state.
type replacedPrimaries struct {
	plannedStorage
}

// lookup is the primary id's replacement, or nil when this run does not replace it.
func (p *replacedPrimaries) lookup(id string) *rdsservice.ReplacedPrimary {
	storage, ok := p.get(id)
	if !ok {
		return nil
	}
	return &rdsservice.ReplacedPrimary{ID: id, Storage: storage}
}
