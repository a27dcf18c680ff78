package simulator

import (
	"fmt"
	"strings"
)

// The old read/write-splitting feature's endpoint (README "Endpoints", EP6). AllocateReadWriteSplittingConnection
// gives a primary with read-only instances one more internal connection string, which DescribeDBInstanceNetInfo
// lists with ConnectionStringType ReadWriteSplitting; only ModifyReadWriteSplittingConnection changes it. The
// simulator does not serve those two actions: a test plants the endpoint as that feature leaves it.

// connectionStringType is the endpoint's ConnectionStringType.
func (ep netEndpoint) connectionStringType() string {
	if ep.readWriteSplitting {
		return "ReadWriteSplitting"
	}
	return "Normal"
}

// errReadWriteSplittingEndpoint refuses changing or releasing the read/write-splitting endpoint through the
// instance's own endpoint actions (EP6: own code).
func errReadWriteSplittingEndpoint(name, action string) *apiError {
	return newErr(400, "OperationDenied.ReadWriteSplitting", "%q is the read/write-splitting endpoint: %s does not change it "+
		"(ModifyReadWriteSplittingConnection does).", truncate(name), action)
}

// AddReadWriteSplittingEndpoint gives a primary instance the read/write-splitting endpoint prefix on port 3306, as
// AllocateReadWriteSplittingConnection would.
func (s *Simulator) AddReadWriteSplittingEndpoint(id, prefix string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.advance(s.cloudNow())
	in, ok := s.state.Instances[id]
	switch {
	case !ok:
		return fmt.Errorf("no instance %s", id)
	case in.MasterID != "":
		return fmt.Errorf("%s is a read-only instance: the read/write-splitting endpoint is its primary's", id)
	case s.prefixHolder(nil, prefix) != "":
		return fmt.Errorf("prefix %q is taken", prefix)
	}
	in.ReadWriteSplitting = &publicEndpoint{Prefix: strings.ToLower(prefix), Port: "3306"}
	return s.saveLocked()
}
