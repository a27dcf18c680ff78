package simulator

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	sdkerrors "github.com/aliyun/alibaba-cloud-sdk-go/sdk/errors"
	"github.com/aliyun/alibaba-cloud-sdk-go/sdk/requests"
	"github.com/aliyun/alibaba-cloud-sdk-go/sdk/responses"
	"github.com/aliyun/alibaba-cloud-sdk-go/services/rds"
)

// Cross-check with Alibaba's classic Go SDK and its typed services/rds models, in JSON and in XML:
// a whole instance life must decode, and every JSON answer field must have the JSON type of the
// SDK struct field it lands in (the SDK's JSON decoder is lenient, so decoding alone would not
// catch a number sent for a string).
//
// Then the day-2 actions (sdk_day2_test.go), and every action internal/rdsapi sends must have been
// driven (the list is read from its source, so a new action fails here until it is driven).
func TestClassicSDKCrossCheck(t *testing.T) {
	actions := clientActions(t)
	if len(actions) < 50 {
		t.Fatalf("read only %d actions from internal/rdsapi: %v", len(actions), actions)
	}
	for _, format := range []string{"JSON", "XML"} {
		t.Run(format, func(t *testing.T) {
			driven := map[string]bool{}
			classicSDKLifecycle(t, format, driven)
			classicSDKDay2(t, format, driven)
			for _, a := range actions {
				if !driven[a] {
					t.Errorf("%s: sent by internal/rdsapi, not driven through the classic SDK", a)
				}
			}
		})
	}
}

type sdkEnv struct {
	t      *testing.T
	sim    *Simulator
	client *rds.Client
	host   string
	format string
	// driven collects the actions called; clock is the simulator's when the test moves it.
	driven map[string]bool
	clock  *fakeClock
}

func classicSDKLifecycle(t *testing.T, format string, driven map[string]bool) {
	sim, srv := NewTestServer(t, Options{CreateDuration: 40 * time.Millisecond, RestartDuration: 40 * time.Millisecond,
		DeleteDuration: 20 * time.Millisecond, FlagLag: 10 * time.Millisecond})
	client, err := rds.NewClientWithAccessKey(DefaultRegion, DefaultAccessKeyID, DefaultAccessKeySecret)
	if err != nil {
		t.Fatal(err)
	}
	e := &sdkEnv{t: t, sim: sim, client: client, host: mustHost(t, srv.URL), format: format, driven: driven}

	create := rds.CreateCreateDBInstanceRequest()
	create.RegionId, create.ZoneId, create.Engine, create.EngineVersion = DefaultRegion, "cn-hangzhou-i", "MySQL", "8.0"
	create.DBInstanceClass, create.DBInstanceStorage, create.DBInstanceStorageType = "mysql.x4.medium.2c", requests.NewInteger(100), "cloud_essd"
	create.DBInstanceNetType, create.SecurityIPList, create.PayType, create.Category = "Intranet", "10.0.0.0/8", "Postpaid", "HighAvailability"
	create.InstanceNetworkType, create.VPCId, create.VSwitchId = "VPC", "vpc-sdk", "vsw-sdk"
	created := rds.CreateCreateDBInstanceResponse()
	e.do(create, created)
	if created.DBInstanceId == "" || created.OrderId == "" || created.Port != "3306" {
		t.Fatalf("CreateDBInstance: id %q order %q port %q", created.DBInstanceId, created.OrderId, created.Port)
	}
	primary := created.DBInstanceId
	attr := e.waitRunning(primary)
	// Fields filled as the cloud fills them for a MySQL 8.0 HA cloud-disk instance.
	if attr.DBInstanceCPU != "2" || attr.DBInstanceMemory != 8192 || attr.MaxConnections != 2400 ||
		attr.MaxIOPS != 6800 || attr.MaxIOMBPS != 170 || attr.DBInstanceClassType != "d" || attr.ConnectionMode != "Standard" ||
		attr.MasterZone != "cn-hangzhou-i" || len(attr.SlaveZones.SlaveZone) != 1 || attr.VpcCloudInstanceId != primary ||
		attr.LockMode != "Unlock" || attr.ResourceGroupId == "" || attr.CurrentKernelVersion == "" || attr.IncrementSourceDBInstanceId != "" {
		t.Fatalf("DescribeDBInstanceAttribute of a new primary: %+v", attr)
	}

	// The same read in the other format carries the same values.
	if format == "XML" {
		json := &sdkEnv{t: t, sim: sim, client: client, host: e.host, format: "JSON", driven: driven}
		// Printed, so that an empty list (JSON []) equals an absent one (XML, no element).
		if other := json.attribute(primary); fmt.Sprintf("%+v", other) != fmt.Sprintf("%+v", attr) {
			t.Fatalf("XML and JSON answers differ:\nXML  %+v\nJSON %+v", attr, other)
		}
	}

	// Toggle 16K atomic write (a parameter the classic SDK does not model): one restart, and the
	// spec answer's OrderId is an integer.
	toggle := rds.CreateModifyDBInstanceSpecRequest()
	toggle.DBInstanceId, toggle.DBInstanceClass = primary, "mysql.x4.medium.2c"
	toggle.QueryParams["OptimizedWrites"] = "none"
	toggled := rds.CreateModifyDBInstanceSpecResponse()
	e.do(toggle, toggled)
	if toggled.OrderId == 0 {
		t.Fatalf("ModifyDBInstanceSpec: OrderId %d", toggled.OrderId)
	}
	e.waitRunning(primary)
	if got := sim.Stats().Restarts[primary]; got != 1 {
		t.Fatalf("restarts after the toggle = %d, want 1", got)
	}

	ro := rds.CreateCreateReadOnlyDBInstanceRequest()
	ro.RegionId, ro.ZoneId, ro.DBInstanceId, ro.EngineVersion = DefaultRegion, "cn-hangzhou-i", primary, "8.0"
	ro.DBInstanceClass, ro.DBInstanceStorage, ro.PayType = "mysqlro.x2m.large.1c", requests.NewInteger(100), "Postpaid"
	roCreated := rds.CreateCreateReadOnlyDBInstanceResponse()
	e.do(ro, roCreated)
	if roCreated.DBInstanceId == "" || roCreated.OrderId == "" {
		t.Fatalf("CreateReadOnlyDBInstance: %+v", roCreated)
	}
	readOnly := roCreated.DBInstanceId
	roAttr := e.waitRunning(readOnly)
	if roAttr.MasterInstanceId != primary || roAttr.IncrementSourceDBInstanceId != primary || roAttr.DBInstanceType != "Readonly" {
		t.Fatalf("read-only attribute: master %q increment source %q type %q", roAttr.MasterInstanceId, roAttr.IncrementSourceDBInstanceId, roAttr.DBInstanceType)
	}

	// Several IP arrays: another service's hidden one shows in the list with its attribute.
	if err := sim.AddIPArray(primary, "ali_dms_group", "100.104.0.0/16", "hidden"); err != nil {
		t.Fatal(err)
	}
	ipReq := rds.CreateDescribeDBInstanceIPArrayListRequest()
	ipReq.DBInstanceId = primary
	ips := rds.CreateDescribeDBInstanceIPArrayListResponse()
	e.do(ipReq, ips)
	if got := fmt.Sprint(ips.Items.DBInstanceIPArray); got != "[{ MIX default IPv4 10.0.0.0/8} {hidden MIX ali_dms_group IPv4 100.104.0.0/16}]" {
		t.Fatalf("DescribeDBInstanceIPArrayList: %s", got)
	}

	// The other actions the provider calls decode as well.
	classes := rds.CreateDescribeAvailableClassesRequest()
	classes.RegionId, classes.ZoneId, classes.Engine, classes.EngineVersion = DefaultRegion, "cn-hangzhou-i", "MySQL", "8.0"
	classes.DBInstanceStorageType, classes.Category, classes.InstanceChargeType = "cloud_essd", "HighAvailability", "Postpaid"
	offered := rds.CreateDescribeAvailableClassesResponse()
	e.do(classes, offered)
	if len(offered.DBInstanceClasses) == 0 || offered.DBInstanceClasses[0].DBInstanceStorageRange.MaxValue != 32000 {
		t.Fatalf("DescribeAvailableClasses: %+v", offered.DBInstanceClasses)
	}
	rename := rds.CreateModifyDBInstanceDescriptionRequest()
	rename.DBInstanceId, rename.DBInstanceDescription = primary, "orders"
	e.do(rename, rds.CreateModifyDBInstanceDescriptionResponse())
	setIPs := rds.CreateModifySecurityIpsRequest()
	setIPs.DBInstanceId, setIPs.SecurityIps, setIPs.DBInstanceIPArrayName = primary, "10.0.0.0/8,192.168.0.1", "default"
	ipsSet := rds.CreateModifySecurityIpsResponse()
	e.do(setIPs, ipsSet)
	if ipsSet.TaskId == "" {
		t.Fatalf("ModifySecurityIps: TaskId %q", ipsSet.TaskId)
	}
	protect := rds.CreateModifyDBInstanceDeletionProtectionRequest()
	protect.DBInstanceId, protect.DeletionProtection = primary, requests.NewBoolean(false)
	e.do(protect, rds.CreateModifyDBInstanceDeletionProtectionResponse())
	restart := rds.CreateRestartDBInstanceRequest()
	restart.DBInstanceId = readOnly
	e.do(restart, rds.CreateRestartDBInstanceResponse())
	e.waitRunning(readOnly)
	cloneReq := rds.CreateCloneDBInstanceRequest()
	cloneReq.RegionId, cloneReq.DBInstanceId, cloneReq.BackupId, cloneReq.PayType = DefaultRegion, primary, "b-1", "Postpaid"
	cloned := rds.CreateCloneDBInstanceResponse()
	e.do(cloneReq, cloned)
	if cloned.DBInstanceId == "" || cloned.OrderId == "" {
		t.Fatalf("CloneDBInstance: %+v", cloned)
	}
	if a := e.waitRunning(cloned.DBInstanceId); a.DBInstanceClass != "mysql.x4.medium.2c" {
		t.Fatalf("clone: class %q", a.DBInstanceClass)
	}
	del := rds.CreateDeleteDBInstanceRequest()
	del.DBInstanceId = cloned.DBInstanceId
	e.do(del, rds.CreateDeleteDBInstanceResponse())
	e.waitGone(cloned.DBInstanceId)

	// Both paging styles list both instances, one per page; InstanceLevel=1 adds category, CPU and memory.
	var classic []string
	for page := 1; page <= 3; page++ {
		list := rds.CreateDescribeDBInstancesRequest()
		list.RegionId, list.PageSize, list.PageNumber, list.InstanceLevel = DefaultRegion, requests.NewInteger(1), requests.NewInteger(page), requests.NewInteger(1)
		listed := rds.CreateDescribeDBInstancesResponse()
		e.do(list, listed)
		if listed.TotalRecordCount != 2 {
			t.Fatalf("classic page %d: TotalRecordCount %d", page, listed.TotalRecordCount)
		}
		for _, it := range listed.Items.DBInstance {
			if it.Category != "HighAvailability" || it.DBInstanceCPU == "" || it.DBInstanceMemory == 0 || it.ConnectionMode != "Standard" {
				t.Fatalf("InstanceLevel=1 item: %+v", it)
			}
			classic = append(classic, it.DBInstanceId)
		}
	}
	var tokened []string
	next := ""
	for pages := 0; ; pages++ {
		if pages > 3 {
			t.Fatalf("token paging did not end: %v", tokened)
		}
		list := rds.CreateDescribeDBInstancesRequest()
		list.RegionId, list.MaxResults, list.NextToken = DefaultRegion, requests.NewInteger(1), next
		listed := rds.CreateDescribeDBInstancesResponse()
		e.do(list, listed)
		for _, it := range listed.Items.DBInstance {
			if it.Category != "" {
				t.Fatalf("item without InstanceLevel=1 carries Category %q", it.Category)
			}
			if it.DBInstanceId == readOnly && len(it.ReadOnlyDBInstanceIds.ReadOnlyDBInstanceId) != 0 {
				t.Fatalf("read-only item lists read-only instances: %+v", it.ReadOnlyDBInstanceIds)
			}
			tokened = append(tokened, it.DBInstanceId)
		}
		if next = listed.NextToken; next == "" {
			break
		}
	}
	want := primary + " " + readOnly
	if strings.Join(classic, " ") != want || strings.Join(tokened, " ") != want {
		t.Fatalf("listed: classic %v, token %v; want %s", classic, tokened, want)
	}

	for _, id := range []string{readOnly, primary} {
		del := rds.CreateDeleteDBInstanceRequest()
		del.DBInstanceId = id
		e.do(del, rds.CreateDeleteDBInstanceResponse())
		e.waitGone(id)
	}
}

// do calls the action through the SDK and checks the answer's shape and the fields the model
// requires (modelFields).
func (e *sdkEnv) do(req requests.AcsRequest, resp responses.AcsResponse) {
	e.t.Helper()
	e.driven[req.GetActionName()] = true
	if err := e.call(req, resp); err != nil {
		e.t.Fatalf("%s (%s): %v", req.GetActionName(), e.format, err)
	}
	e.checkShape(req.GetActionName(), resp)
	e.requireFields(req.GetActionName(), resp, modelFields[req.GetActionName()])
}

func (e *sdkEnv) call(req requests.AcsRequest, resp responses.AcsResponse) error {
	req.SetDomain(e.host)
	req.SetScheme("http")
	// AcceptFormat is a promoted field of every SDK request, with no setter.
	reflect.ValueOf(req).Elem().FieldByName("AcceptFormat").SetString(e.format)
	return e.client.DoAction(req, resp)
}

// checkShape: an XML answer is an XML document under <ActionResponse>; every field of a JSON
// answer has the JSON type of the SDK field it decodes into.
func (e *sdkEnv) checkShape(action string, resp responses.AcsResponse) {
	e.t.Helper()
	raw := resp.GetHttpContentBytes()
	if e.format == "XML" {
		if !bytes.HasPrefix(raw, []byte("<?xml")) || !bytes.Contains(raw, []byte("<"+action+"Response>")) {
			e.t.Fatalf("%s: not an XML answer under <%sResponse>: %.200s", action, action, raw)
		}
		return
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var body any
	if err := dec.Decode(&body); err != nil {
		e.t.Fatalf("%s: answer is not JSON: %v", action, err)
	}
	for _, problem := range jsonTypeMismatches(action, body, reflect.TypeOf(resp).Elem()) {
		e.t.Errorf("%s", problem)
	}
}

// jsonTypeMismatches walks a JSON value beside the SDK type it decodes into. Fields the SDK does
// not model (such as OptimizedWritesInfo in this SDK version) are not judged.
func jsonTypeMismatches(path string, v any, t reflect.Type) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	bad := func(want string) []string {
		return []string{fmt.Sprintf("%s: JSON %T (%v), SDK wants %s", path, v, v, want)}
	}
	switch t.Kind() {
	case reflect.String:
		if _, ok := v.(string); !ok {
			return bad("a string")
		}
	case reflect.Int, reflect.Int32, reflect.Int64:
		n, ok := v.(json.Number)
		if _, err := n.Int64(); !ok || err != nil {
			return bad("an integer")
		}
	case reflect.Float32, reflect.Float64:
		if _, ok := v.(json.Number); !ok {
			return bad("a number")
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return bad("a boolean")
		}
	case reflect.Slice:
		items, ok := v.([]any)
		if !ok {
			return bad("an array")
		}
		var out []string
		for i, item := range items {
			out = append(out, jsonTypeMismatches(fmt.Sprintf("%s[%d]", path, i), item, t.Elem())...)
		}
		return out
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return bad("an object")
		}
		fields := map[string]reflect.Type{}
		for i := range t.NumField() {
			f := t.Field(i)
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && !f.Anonymous {
				fields[name] = f.Type
			}
		}
		var out []string
		for name, value := range obj {
			if ft, known := fields[name]; known {
				out = append(out, jsonTypeMismatches(path+"."+name, value, ft)...)
			}
		}
		return out
	}
	return nil
}

func (e *sdkEnv) attribute(id string) rds.DBInstanceAttribute {
	e.t.Helper()
	req := rds.CreateDescribeDBInstanceAttributeRequest()
	req.DBInstanceId = id
	resp := rds.CreateDescribeDBInstanceAttributeResponse()
	e.do(req, resp)
	if len(resp.Items.DBInstanceAttribute) != 1 {
		e.t.Fatalf("DescribeDBInstanceAttribute %s: %d items", id, len(resp.Items.DBInstanceAttribute))
	}
	return resp.Items.DBInstanceAttribute[0]
}

// waitRunning polls until the instance is Running (at most 10 s of the simulator's short
// transitions) and returns its attribute.
func (e *sdkEnv) waitRunning(id string) rds.DBInstanceAttribute {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		a := e.attribute(id)
		if a.DBInstanceStatus == statusRunning {
			return a
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%s still %s", id, a.DBInstanceStatus)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitGone polls until the instance is gone, then checks the not-found error in the format asked.
func (e *sdkEnv) waitGone(id string) {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		req := rds.CreateDescribeDBInstanceAttributeRequest()
		req.DBInstanceId = id
		err := e.call(req, rds.CreateDescribeDBInstanceAttributeResponse())
		if err != nil {
			e.checkNotFound(id, err)
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%s not gone", id)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// checkNotFound: HTTP 404 InvalidDBInstanceId.NotFound with the standard error fields. The
// classic SDK parses error bodies as JSON only, so an XML error is read here.
func (e *sdkEnv) checkNotFound(id string, err error) {
	e.t.Helper()
	var se *sdkerrors.ServerError
	if !errors.As(err, &se) || se.HttpStatus() != 404 {
		e.t.Fatalf("DescribeDBInstanceAttribute of deleted %s: %v", id, err)
	}
	code := se.ErrorCode()
	if e.format == "XML" {
		var body struct {
			XMLName   xml.Name `xml:"Error"`
			Code      string   `xml:"Code"`
			HostID    string   `xml:"HostId"`
			Message   string   `xml:"Message"`
			Recommend string   `xml:"Recommend"`
			RequestID string   `xml:"RequestId"`
		}
		if err := xml.Unmarshal([]byte(se.Message()), &body); err != nil || body.HostID == "" || body.RequestID == "" || body.Recommend == "" || body.Message == "" {
			e.t.Fatalf("XML error body %q: %v", se.Message(), err)
		}
		code = body.Code
	}
	if code != "InvalidDBInstanceId.NotFound" {
		e.t.Fatalf("not-found error code %q: %v", code, err)
	}
}
