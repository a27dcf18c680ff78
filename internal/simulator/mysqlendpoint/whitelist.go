package mysqlendpoint

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
)

// whitelist is an instance's security_ips: the client addresses allowed to connect.
type whitelist []netip.Prefix

// parseWhitelist accepts IPv4/IPv6 addresses and CIDR blocks (e.g. "127.0.0.1", "10.0.0.0/8", "0.0.0.0/0").
// An empty list allows no client, as an RDS instance whose whitelist is empty.
func parseWhitelist(entries []string) (whitelist, error) {
	list := make(whitelist, 0, len(entries))
	for _, raw := range entries {
		entry := strings.TrimSpace(raw)
		if entry == "" {
			continue
		}
		if strings.Contains(entry, "/") {
			prefix, err := netip.ParsePrefix(entry)
			if err != nil {
				return nil, fmt.Errorf("whitelist entry %q is not an IP address or CIDR block", raw)
			}
			list = append(list, prefix.Masked())
			continue
		}
		addr, err := netip.ParseAddr(entry)
		if err != nil {
			return nil, fmt.Errorf("whitelist entry %q is not an IP address or CIDR block", raw)
		}
		list = append(list, netip.PrefixFrom(addr, addr.BitLen()))
	}
	return list, nil
}

func (w whitelist) allows(remote net.Addr) bool {
	tcp, ok := remote.(*net.TCPAddr)
	if !ok {
		return false
	}
	addr, ok := netip.AddrFromSlice(tcp.IP)
	if !ok {
		return false
	}
	addr = addr.Unmap()
	for _, prefix := range w {
		if prefix.Contains(addr) {
			return true
		}
	}
	return false
}
