package mysqlendpoint

import (
	"fmt"

	"github.com/openrds/terraform-provider-rds/internal/simulator"
)

// StartProxy implements simulator.ProxyHost: a proxy endpoint in front of this (primary) instance.
func (se *simulatorEndpoint) StartProxy(state simulator.ProxyState) (simulator.ProxyServer, error) {
	cfg, err := proxyConfigOf(state)
	if err != nil {
		return nil, err
	}
	p, err := StartProxy(cfg)
	if err != nil {
		return nil, err
	}
	return simulatorProxy{p}, nil
}

// proxyConfigOf maps the simulator's routing onto this package's endpoints.
func proxyConfigOf(state simulator.ProxyState) (ProxyConfig, error) {
	primary, ok := state.Primary.(*simulatorEndpoint)
	if !ok {
		return ProxyConfig{}, fmt.Errorf("mysql proxy: the primary's endpoint is a %T", state.Primary)
	}
	cfg := ProxyConfig{Primary: primary.Endpoint, ReadOnly: state.ReadOnly, Splitting: state.Splitting,
		TransactionSplit: state.TransactionSplit, AllowedClients: state.AllowedClients}
	for _, r := range state.Reads {
		ep, ok := r.Endpoint.(*simulatorEndpoint)
		if !ok {
			return ProxyConfig{}, fmt.Errorf("mysql proxy: the endpoint of %s is a %T", r.InstanceID, r.Endpoint)
		}
		cfg.Reads = append(cfg.Reads, ProxyRead{Endpoint: ep.Endpoint, Weight: r.Weight})
	}
	return cfg, nil
}

// simulatorProxy applies the simulator's routing to a Proxy.
type simulatorProxy struct{ *Proxy }

// Apply implements simulator.ProxyServer.
func (sp simulatorProxy) Apply(state simulator.ProxyState) error {
	cfg, err := proxyConfigOf(state)
	if err != nil {
		return err
	}
	return sp.Proxy.Apply(cfg)
}
