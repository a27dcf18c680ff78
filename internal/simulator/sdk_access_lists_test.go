package simulator

import (
	"github.com/aliyun/alibaba-cloud-sdk-go/sdk/requests"
	"github.com/aliyun/alibaba-cloud-sdk-go/services/rds"
)

// sdkAccessLists drives the access-list actions of issue 42 §2 through the classic SDK's typed
// models: the ECS security groups set, read back, and removed; a whitelist template's life.
func (e *sdkEnv) sdkAccessLists(id string) {
	e.t.Helper()
	modify := rds.CreateModifySecurityGroupConfigurationRequest()
	modify.DBInstanceId, modify.SecurityGroupId = id, "sg-app1,sg-app2"
	modified := rds.CreateModifySecurityGroupConfigurationResponse()
	e.do(modify, modified)
	if modified.DBInstanceName != id || len(modified.Items.EcsSecurityGroupRelation) != 2 {
		e.t.Fatalf("ModifySecurityGroupConfiguration: %+v", modified)
	}
	describe := rds.CreateDescribeSecurityGroupConfigurationRequest()
	describe.DBInstanceId = id
	described := rds.CreateDescribeSecurityGroupConfigurationResponse()
	e.do(describe, described)
	if g := described.Items.EcsSecurityGroupRelation; len(g) != 2 || g[1].SecurityGroupId != "sg-app2" || g[0].RegionId != DefaultRegion || g[0].NetworkType == "" {
		e.t.Fatalf("DescribeSecurityGroupConfiguration: %+v", described)
	}
	ungroup := rds.CreateModifySecurityGroupConfigurationRequest()
	ungroup.DBInstanceId = id
	ungroup.QueryParams["SecurityGroupId"] = "" // the typed field is left out when empty
	e.do(ungroup, rds.CreateModifySecurityGroupConfigurationResponse())
	e.sdkWhitelistTemplates(id)
}

// sdkWhitelistTemplates creates a template, finds it by name, changes it, links and unlinks it,
// and deletes it (ModifyWhitelistTemplate with an empty IpWhitelist).
func (e *sdkEnv) sdkWhitelistTemplates(id string) {
	e.t.Helper()
	create := rds.CreateModifyWhitelistTemplateRequest()
	create.TemplateName, create.IpWhitelist = "office", "10.1.0.0/16"
	created := rds.CreateModifyWhitelistTemplateResponse()
	e.do(create, created)
	if !created.Success || created.Data.Status != "ok" {
		e.t.Fatalf("ModifyWhitelistTemplate: %+v", created)
	}
	all := rds.CreateDescribeAllWhitelistTemplateRequest()
	all.TemplateName, all.PageNumbers, all.MaxRecordsPerPage = "office", requests.NewInteger(1), requests.NewInteger(10)
	listed := rds.CreateDescribeAllWhitelistTemplateResponse()
	e.do(all, listed)
	if len(listed.Data.Templates) != 1 || listed.Data.Templates[0].TemplateName != "office" || listed.Data.HasNext {
		e.t.Fatalf("DescribeAllWhitelistTemplate: %+v", listed)
	}
	tid := requests.NewInteger(listed.Data.Templates[0].TemplateId)
	change := rds.CreateModifyWhitelistTemplateRequest()
	change.TemplateId, change.TemplateName, change.IpWhitelist = tid, "office", "10.1.0.0/16,10.2.0.1"
	e.do(change, rds.CreateModifyWhitelistTemplateResponse())
	one := rds.CreateDescribeWhitelistTemplateRequest()
	one.TemplateId = tid
	read := rds.CreateDescribeWhitelistTemplateResponse()
	e.do(one, read)
	if read.Data.Template.Ips != "10.1.0.0/16,10.2.0.1" {
		e.t.Fatalf("DescribeWhitelistTemplate: %+v", read)
	}
	attach := rds.CreateAttachWhitelistTemplateToInstanceRequest()
	attach.TemplateId, attach.InsName = tid, id
	e.do(attach, rds.CreateAttachWhitelistTemplateToInstanceResponse())
	linked := rds.CreateDescribeInstanceLinkedWhitelistTemplateRequest()
	linked.InsName = id
	links := rds.CreateDescribeInstanceLinkedWhitelistTemplateResponse()
	e.do(linked, links)
	if links.Data.InsName != id || len(links.Data.Templates) != 1 {
		e.t.Fatalf("DescribeInstanceLinkedWhitelistTemplate: %+v", links)
	}
	detach := rds.CreateDetachWhitelistTemplateToInstanceRequest()
	detach.TemplateId, detach.InsName = tid, id
	e.do(detach, rds.CreateDetachWhitelistTemplateToInstanceResponse())
	del := rds.CreateModifyWhitelistTemplateRequest()
	del.TemplateId, del.TemplateName = tid, "office"
	del.QueryParams["IpWhitelist"] = "" // the typed field is left out when empty
	e.do(del, rds.CreateModifyWhitelistTemplateResponse())
}
