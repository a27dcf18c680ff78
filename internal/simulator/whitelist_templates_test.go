package simulator

import (
	"fmt"
	"strings"
	"testing"
)

// Issue 42 §2: whitelist templates are created, found by name, changed, linked to an instance
// (their entries count against its 1,000), unlinked and deleted with an empty IpWhitelist; names
// are unique.
func TestWhitelistTemplates(t *testing.T) {
	e := newEnv(t)
	id := e.create(nil)
	e.c.ok("ModifyWhitelistTemplate", map[string]string{"TemplateName": "office", "IpWhitelist": "10.1.0.0/16"})
	e.c.fails("ModifyWhitelistTemplate", map[string]string{"TemplateName": "office", "IpWhitelist": "10.2.0.0/16"}, 400, "InvalidTemplateName.Duplicate")
	e.c.fails("ModifyWhitelistTemplate", map[string]string{"TemplateName": "bad", "IpWhitelist": "10.0.0.300"}, 400, "InvalidParameter")
	e.c.fails("ModifyWhitelistTemplate", map[string]string{"TemplateName": "none", "IpWhitelist": ""}, 400, "MissingParameter")
	all := e.c.ok("DescribeAllWhitelistTemplate", map[string]string{"TemplateName": "office", "PageNumbers": "1", "MaxRecordsPerPage": "10"})
	items := all["Data"].(map[string]any)["Templates"].([]any)
	if len(items) != 1 {
		t.Fatalf("DescribeAllWhitelistTemplate: %v", all)
	}
	tid := fmt.Sprint(items[0].(map[string]any)["TemplateId"])
	e.c.ok("ModifyWhitelistTemplate", map[string]string{"TemplateId": tid, "TemplateName": "office", "IpWhitelist": "10.1.0.0/16,10.3.0.1"})
	got := e.c.ok("DescribeWhitelistTemplate", map[string]string{"TemplateId": tid})["Data"].(map[string]any)["Template"].(map[string]any)
	if got["Ips"] != "10.1.0.0/16,10.3.0.1" || got["TemplateName"] != "office" {
		t.Fatalf("DescribeWhitelistTemplate: %v", got)
	}
	e.c.ok("AttachWhitelistTemplateToInstance", map[string]string{"TemplateId": tid, "InsName": id})
	linked := func() int {
		body := e.c.ok("DescribeInstanceLinkedWhitelistTemplate", map[string]string{"InsName": id})
		return len(body["Data"].(map[string]any)["Templates"].([]any))
	}
	if n := linked(); n != 1 {
		t.Fatalf("linked templates: %d", n)
	}
	var many []string
	for i := range 999 {
		many = append(many, fmt.Sprintf("10.%d.%d.1", 100+i/250, i%250))
	}
	e.c.fails("ModifySecurityIps", map[string]string{"DBInstanceId": id, "SecurityIps": strings.Join(many, ","), "DBInstanceIPArrayName": "big"}, 400, "QuotaExceeded.SecurityIps")
	e.c.fails("ModifyWhitelistTemplate", map[string]string{"TemplateId": tid, "TemplateName": "office", "IpWhitelist": strings.Join(append(many, "192.168.9.9"), ",")}, 400, "QuotaExceeded.SecurityIps")
	e.c.ok("DetachWhitelistTemplateToInstance", map[string]string{"TemplateId": tid, "InsName": id})
	if n := linked(); n != 0 {
		t.Fatalf("linked templates after detach: %d", n)
	}
	e.c.ok("ModifyWhitelistTemplate", map[string]string{"TemplateId": tid, "TemplateName": "office", "IpWhitelist": ""})
	e.c.fails("DescribeWhitelistTemplate", map[string]string{"TemplateId": tid}, 404, "InvalidTemplateId.NotFound")
	e.c.fails("AttachWhitelistTemplateToInstance", map[string]string{"TemplateId": tid, "InsName": id}, 404, "InvalidTemplateId.NotFound")
	e.c.fails("DescribeAllWhitelistTemplate", map[string]string{"PageNumbers": "0", "MaxRecordsPerPage": "10"}, 400, "InvalidParameter")
}
