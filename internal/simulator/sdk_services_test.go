package simulator

import (
	"github.com/aliyun/alibaba-cloud-sdk-go/sdk/requests"
	"github.com/aliyun/alibaba-cloud-sdk-go/sdk/responses"
	"github.com/aliyun/alibaba-cloud-sdk-go/services/rds"
	"github.com/aliyun/alibaba-cloud-sdk-go/services/resourcemanager"
)

// The classic SDK (alibaba-cloud-sdk-go v1.63.107, services/das) has no model of DAS's
// ModifySqlLogConfig or DescribeSqlLogConfig. As a parameter the SDK does not model is sent through
// a typed request's QueryParams, these actions are sent through the SDK's own RPC request, signer,
// client and decoder with a request and answer model written here from the API reference pages
// (help.aliyun.com/en/das/developer-reference/api-das-2020-01-16-modifysqllogconfig and
// -describesqllogconfig); checkShape then judges the answer's JSON types against that model.

// sqlLogConfigRequest is ModifySqlLogConfig's or DescribeSqlLogConfig's request (DAS 2020-01-16).
type sqlLogConfigRequest struct {
	*requests.RpcRequest
	InstanceId   string           `position:"Query" name:"InstanceId"`
	Enable       requests.Boolean `position:"Query" name:"Enable"`
	Retention    requests.Integer `position:"Query" name:"Retention"`
	HotRetention requests.Integer `position:"Query" name:"HotRetention"`
}

func newSQLLogConfigRequest(action string) *sqlLogConfigRequest {
	req := &sqlLogConfigRequest{RpcRequest: &requests.RpcRequest{}}
	req.InitWithApiInfo("DAS", dasAPIVersion, action, "", "")
	req.Method = requests.POST
	return req
}

// sqlLogConfigResponse is the DAS envelope; Data is DescribeSqlLogConfig's.
type sqlLogConfigResponse struct {
	*responses.BaseResponse
	Code      string `json:"Code" xml:"Code"`
	Message   string `json:"Message" xml:"Message"`
	RequestId string `json:"RequestId" xml:"RequestId"`
	Success   string `json:"Success" xml:"Success"`
	Data      struct {
		SqlLogEnable      bool   `json:"SqlLogEnable" xml:"SqlLogEnable"`
		RequestEnable     bool   `json:"RequestEnable" xml:"RequestEnable"`
		Retention         int    `json:"Retention" xml:"Retention"`
		HotRetention      int    `json:"HotRetention" xml:"HotRetention"`
		ColdRetention     int    `json:"ColdRetention" xml:"ColdRetention"`
		Version           string `json:"Version" xml:"Version"`
		SqlLogVisibleTime int64  `json:"SqlLogVisibleTime" xml:"SqlLogVisibleTime"`
	} `json:"Data" xml:"Data"`
}

func newSQLLogConfigResponse() *sqlLogConfigResponse {
	return &sqlLogConfigResponse{BaseResponse: &responses.BaseResponse{}}
}

// sdkAuditAndGroups turns SQL audit on and reads it back (DAS), then finds the instance's resource
// group with Resource Manager's ListResourceGroups (services/resourcemanager, API 2020-03-31).
func (e *sdkEnv) sdkAuditAndGroups(id string) {
	e.t.Helper()
	on := newSQLLogConfigRequest("ModifySqlLogConfig")
	on.InstanceId, on.Enable, on.Retention, on.HotRetention = id, requests.NewBoolean(true), requests.NewInteger(30), requests.NewInteger(7)
	done := newSQLLogConfigResponse()
	e.do(on, done)
	if done.Code != "200" || done.Success != "true" {
		e.t.Fatalf("ModifySqlLogConfig: %+v", done)
	}
	read := newSQLLogConfigRequest("DescribeSqlLogConfig")
	read.InstanceId = id
	got := newSQLLogConfigResponse()
	e.do(read, got)
	if !got.Data.SqlLogEnable || got.Data.Retention != 30 || got.Data.HotRetention != 7 || got.Data.ColdRetention != 23 {
		e.t.Fatalf("DescribeSqlLogConfig: %+v", got.Data)
	}

	group := e.attribute(id).ResourceGroupId
	list := resourcemanager.CreateListResourceGroupsRequest()
	list.ResourceGroupId = group
	groups := resourcemanager.CreateListResourceGroupsResponse()
	e.do(list, groups)
	if found := groups.ResourceGroups.ResourceGroup; len(found) != 1 || found[0].Id != group || found[0].Status != "OK" {
		e.t.Fatalf("ListResourceGroups %s: %+v", group, groups.ResourceGroups)
	}
}

// sdkReleaseKeeping releases the instance after a backup, keeping the newest set, and lists the
// set with DescribeDetachedBackups.
func (e *sdkEnv) sdkReleaseKeeping(id string) {
	e.t.Helper()
	backup := rds.CreateCreateBackupRequest()
	backup.DBInstanceId, backup.BackupMethod = id, "Physical"
	e.do(backup, rds.CreateCreateBackupResponse())
	e.clock.Add(restartD)
	del := rds.CreateDeleteDBInstanceRequest()
	del.DBInstanceId, del.ReleasedKeepPolicy = id, "Lastest"
	e.do(del, rds.CreateDeleteDBInstanceResponse())
	e.clock.Add(deleteD)
	list := rds.CreateDescribeDetachedBackupsRequest()
	list.Region, list.DBInstanceId = DefaultRegion, id
	kept := rds.CreateDescribeDetachedBackupsResponse()
	e.do(list, kept)
	if len(kept.Items.Backup) != 1 || kept.Items.Backup[0].DBInstanceId != id || kept.TotalRecordCount != "1" {
		e.t.Fatalf("DescribeDetachedBackups: %+v", kept)
	}
}
