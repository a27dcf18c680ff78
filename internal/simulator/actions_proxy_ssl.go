package simulator

import "time"

// Proxy SSL (README "Database proxy"): ModifyDbProxyInstanceSsl turns SSL of a proxy endpoint on
// (DbProxySslEnabled 1; 2 renews the certificate) or off (0); GetDbProxyInstanceSsl lists the
// certificates, none while SSL is off. Both spell the instance parameter DbInstanceId.

func init() {
	actions["ModifyDbProxyInstanceSsl"] = (*Simulator).modifyDbProxyInstanceSsl
	actions["GetDbProxyInstanceSsl"] = (*Simulator).getDbProxyInstanceSsl
}

// proxySSLValidity is how long a proxy certificate lasts (assumption: one year).
const proxySSLValidity = 365 * 24 * time.Hour

func (s *Simulator) proxyOfDb(c *call) (*instance, *dbProxy, *apiError) {
	id, e := c.p.required("DbInstanceId")
	if e != nil {
		return nil, nil, e
	}
	c.p["DBInstanceId"] = id
	return s.proxyOf(c)
}

func (s *Simulator) modifyDbProxyInstanceSsl(c *call) (map[string]any, *apiError) {
	_, px, e := s.proxyOfDb(c)
	if e != nil {
		return nil, e
	}
	id, e := c.p.required("DbProxyEndpointId")
	if e != nil {
		return nil, e
	}
	ep := px.endpoint(id)
	if ep == nil {
		return nil, errNoProxyEndpoint(id)
	}
	switch v, e := c.p.oneOf("DbProxySslEnabled", "", "0", "1", "2"); {
	case e != nil:
		return nil, e
	case v == "":
		return nil, errMissing("DbProxySslEnabled")
	case v == "0":
		ep.SSLUntil = time.Time{}
	default:
		ep.SSLUntil = c.now.Add(proxySSLValidity)
	}
	c.dirty = true
	return map[string]any{}, nil
}

func (s *Simulator) getDbProxyInstanceSsl(c *call) (map[string]any, *apiError) {
	in, px, e := s.proxyOfDb(c)
	if e != nil {
		return nil, e
	}
	items := []any{}
	for _, ep := range px.Endpoints {
		if !ep.SSLUntil.IsZero() {
			items = append(items, map[string]any{"DbInstanceName": in.ID, "EndpointName": ep.ID, "EndpointType": endpointType(ep),
				"SslExpiredTime": ep.SSLUntil.UTC().Format(timestampLayout), "CertCommonName": ep.ID + ".rwlb.rds.aliyuncs.com"})
		}
	}
	return map[string]any{"DbProxyCertListItems": map[string]any{"DbProxyCertListItems": items}}, nil
}
