package simulator

import "github.com/aliyun/alibaba-cloud-sdk-go/services/rds"

// sdkProxy drives the database proxy with the classic SDK: Startup, the default endpoint's
// weights and features, a resize and the read-backs, then Shutdown. EffectiveTime, which the
// classic SDK's ModifyDBProxyEndpoint model lacks, is sent as an extra query parameter.
func (e *sdkEnv) sdkProxy(id string) {
	e.t.Helper()
	start := rds.CreateModifyDBProxyRequest()
	start.DBInstanceId, start.ConfigDBProxyService, start.DBProxyInstanceNum, start.DBProxyInstanceType = id, "Startup", "2", "common"
	start.InstanceNetworkType, start.VPCId, start.VSwitchId = "VPC", "vpc-sdk", "vsw-sdk-i"
	e.do(start, rds.CreateModifyDBProxyResponse())
	e.clock.Add(2*restartD + lagD)
	describe := rds.CreateDescribeDBProxyRequest()
	describe.DBInstanceId = id
	described := rds.CreateDescribeDBProxyResponse()
	e.do(describe, described)
	items := described.DBProxyConnectStringItems.DBProxyConnectStringItemsItem
	if described.DBProxyInstanceStatus != "Running" || described.DBProxyInstanceNum != 2 || len(items) != 1 || items[0].DBProxyEndpointId == "" {
		e.t.Fatalf("DescribeDBProxy: %+v", described)
	}
	modify := rds.CreateModifyDBProxyEndpointRequest()
	modify.DBInstanceId, modify.DBProxyEndpointId, modify.ReadOnlyInstanceDistributionType = id, items[0].DBProxyEndpointId, "Custom"
	modify.ReadOnlyInstanceWeight, modify.ReadOnlyInstanceMaxDelayTime = `{"`+id+`":"200"}`, "10"
	modify.ConfigDBProxyFeatures, modify.DbEndpointReadWriteMode = "ReadWriteSpliting:1;ConnectionPersist:1", "ReadWrite"
	modify.QueryParams["EffectiveTime"] = "Immediate"
	e.do(modify, rds.CreateModifyDBProxyEndpointResponse())
	endpoint := rds.CreateDescribeDBProxyEndpointRequest()
	endpoint.DBInstanceId, endpoint.DBProxyEndpointId = id, items[0].DBProxyEndpointId
	read := rds.CreateDescribeDBProxyEndpointResponse()
	e.do(endpoint, read)
	if read.ReadOnlyInstanceMaxDelayTime != "10" || read.ReadOnlyInstanceDistributionType != "Custom" || read.DbProxyEndpointReadWriteMode != "ReadWrite" {
		e.t.Fatalf("DescribeDBProxyEndpoint: %+v", read)
	}
	e.sdkProxyEndpoint(id)
	e.sdkProxyEndpointAddress(id, items[0].DBProxyEndpointId)
	resize := rds.CreateModifyDBProxyInstanceRequest()
	resize.DBInstanceId, resize.DBProxyInstanceNum, resize.DBProxyInstanceType, resize.EffectiveTime = id, "3", "common", "Immediate"
	e.do(resize, rds.CreateModifyDBProxyInstanceResponse())
	ssl := rds.CreateModifyDbProxyInstanceSslRequest()
	ssl.DbInstanceId, ssl.DbProxyEndpointId, ssl.DbProxySslEnabled = id, items[0].DBProxyEndpointId, "1"
	e.do(ssl, rds.CreateModifyDbProxyInstanceSslResponse())
	certs := rds.CreateGetDbProxyInstanceSslRequest()
	certs.DbInstanceId = id
	listed := rds.CreateGetDbProxyInstanceSslResponse()
	e.do(certs, listed)
	if got := listed.DbProxyCertListItems.DbProxyCertListItemsItem; len(got) != 1 || got[0].SslExpiredTime == "" {
		e.t.Fatalf("GetDbProxyInstanceSsl: %+v", listed)
	}
	stop := rds.CreateModifyDBProxyRequest()
	stop.DBInstanceId, stop.ConfigDBProxyService = id, "Shutdown"
	e.do(stop, rds.CreateModifyDBProxyResponse())
}

// sdkProxyEndpoint creates a further endpoint with DbEndpointOperator Create and a description
// (DbEndpointAliases), finds it in DescribeDBProxy's DbProxyEndpointItems by that description (the
// classic SDK's answer of the create holds no id), and deletes it.
func (e *sdkEnv) sdkProxyEndpoint(id string) {
	e.t.Helper()
	create := rds.CreateModifyDBProxyEndpointRequest()
	create.DBInstanceId, create.DbEndpointOperator, create.DbEndpointAliases, create.DbEndpointReadWriteMode = id, "Create", "analytics", "ReadOnly"
	create.QueryParams["EffectiveTime"] = "Immediate"
	e.do(create, rds.CreateModifyDBProxyEndpointResponse())
	describe := rds.CreateDescribeDBProxyRequest()
	describe.DBInstanceId = id
	described := rds.CreateDescribeDBProxyResponse()
	e.do(describe, described)
	made := ""
	for _, it := range described.DbProxyEndpointItems.DbProxyEndpointItemsItem {
		if it.DbProxyEndpointAliases == "analytics" && it.DbProxyReadWriteMode == "ReadOnly" && it.DbProxyEndpointType != "" {
			made = it.DbProxyEndpointName
		}
	}
	if made == "" {
		e.t.Fatalf("DescribeDBProxy after a Create: %+v", described.DbProxyEndpointItems)
	}
	remove := rds.CreateModifyDBProxyEndpointRequest()
	remove.DBInstanceId, remove.DBProxyEndpointId, remove.DbEndpointOperator = id, made, "Delete"
	remove.QueryParams["EffectiveTime"] = "Immediate"
	e.do(remove, rds.CreateModifyDBProxyEndpointResponse())
	after := rds.CreateDescribeDBProxyResponse()
	e.do(describe, after)
	if n := len(after.DbProxyEndpointItems.DbProxyEndpointItemsItem); n != 1 {
		e.t.Fatalf("DescribeDBProxy after a Delete lists %d endpoints, want the default one", n)
	}
}

// sdkProxyEndpointAddress gives the endpoint a new prefix and port with ModifyDBProxyEndpointAddress
// and reads them back.
func (e *sdkEnv) sdkProxyEndpointAddress(id, endpointID string) {
	e.t.Helper()
	move := rds.CreateModifyDBProxyEndpointAddressRequest()
	move.DBInstanceId, move.DBProxyEndpointId, move.DBProxyConnectStringNetType = id, endpointID, "VPC"
	move.DBProxyNewConnectString, move.DBProxyNewConnectStringPort = "sdk-proxy", "3307"
	e.do(move, rds.CreateModifyDBProxyEndpointAddressResponse())
	endpoint := rds.CreateDescribeDBProxyEndpointRequest()
	endpoint.DBInstanceId, endpoint.DBProxyEndpointId = id, endpointID
	read := rds.CreateDescribeDBProxyEndpointResponse()
	e.do(endpoint, read)
	if read.DBProxyConnectString != "sdk-proxy.rwlb.rds.aliyuncs.com" || read.DBProxyConnectStringPort != "3307" {
		e.t.Fatalf("DescribeDBProxyEndpoint after ModifyDBProxyEndpointAddress: %s:%s", read.DBProxyConnectString, read.DBProxyConnectStringPort)
	}
}
