package simulator

import (
	"strings"
)

// classSpec is what a class gives an instance: cores, memory, the connection limit and the
// class's own IOPS and throughput ceilings (the "maximum IOPS for the instance type" of the
// public instance-type tables). The simulator derives them from the class name: the size gives
// the cores, the family's digit the GB per core; connections, IOPS and throughput scale with the
// class (the simulator's own formula, shaped like the public tables; see README).
type classSpec struct {
	cores          int64
	memoryMB       int64
	maxConnections int64
	classIOPS      int64
	classIOMBPS    int64
}

var sizeCores = map[string]int64{"micro": 1, "small": 1, "medium": 2, "large": 4, "xlarge": 8, "2xlarge": 16, "4xlarge": 32, "8xlarge": 64}

func specOf(class string) classSpec {
	parts := strings.Split(class, ".")
	if len(parts) < 3 {
		return classSpec{}
	}
	cores := sizeCores[parts[2]]
	if cores == 0 {
		return classSpec{}
	}
	ratio := int64(2)
	for _, r := range parts[1] {
		if r >= '1' && r <= '9' {
			ratio = int64(r - '0')
			break
		}
	}
	memGB := cores * ratio
	return classSpec{
		cores:          cores,
		memoryMB:       memGB * 1024,
		maxConnections: min(300*memGB, 100000),
		classIOPS:      min(6000*cores, 200000),
		classIOMBPS:    min(96*cores, 4000),
	}
}

// maxIOPS is the instance's IOPS ceiling. Cloud disks follow the published formula
// min{1800 + k × storage GB, disk cap, class cap} (k = 50 for ESSD, 30 for standard SSD; caps
// 50000 PL1, 100000 PL2, 1000000 PL3, 25000 standard SSD); local disks have the class cap.
// general_essd (Premium ESSD) is treated like PL1 (an assumption).
func maxIOPS(in *instance) int64 {
	spec := specOf(in.Class)
	perGB, diskCap := int64(50), int64(50000)
	switch in.StorageType {
	case "local_ssd":
		return spec.classIOPS
	case "cloud_ssd":
		perGB, diskCap = 30, 25000
	case "cloud_essd2":
		diskCap = 100000
	case "cloud_essd3":
		diskCap = 1000000
	}
	return min(1800+perGB*in.Storage, diskCap, spec.classIOPS)
}

// maxIOMBPS is the throughput ceiling in MB/s: the cloud disk's min{120 + 0.5 × storage GB,
// disk cap} (350 PL1 and Premium ESSD, 750 PL2, 4000 PL3, 300 standard SSD), bounded by the
// class; local disks have the class cap.
func maxIOMBPS(in *instance) int64 {
	spec := specOf(in.Class)
	diskCap := int64(350)
	switch in.StorageType {
	case "local_ssd":
		return spec.classIOMBPS
	case "cloud_ssd":
		diskCap = 300
	case "cloud_essd2":
		diskCap = 750
	case "cloud_essd3":
		diskCap = 4000
	}
	return min(120+in.Storage/2, diskCap, spec.classIOMBPS)
}

// classType is DBInstanceClassType: "x" general-purpose (families n*), "d" dedicated (x*), "s"
// shared otherwise.
func classType(class string) string {
	parts := strings.Split(class, ".")
	if len(parts) < 2 {
		return "s"
	}
	switch {
	case strings.HasPrefix(parts[1], "n"):
		return "x"
	case strings.HasPrefix(parts[1], "x"):
		return "d"
	}
	return "s"
}

// diskUsed is DBInstanceDiskUsed in bytes (a string in the API): a fixed 2% of the storage, as
// the simulator holds no data.
func diskUsed(in *instance) string {
	return itoa(in.Storage * (1 << 30) / 50)
}

// Fixed facts of every simulated instance (the values an ordinary new instance reports).
const (
	resourceGroupID     = "rg-acfmsimulator0"
	accountMaxQuantity  = 500
	databaseMaxQuantity = 500
)

// slaveZones is SlaveZones: an HA or cluster instance has a standby in its zone (the simulator
// places it in the primary's zone); a Basic instance has none.
func slaveZones(in *instance) map[string]any {
	zones := []map[string]string{}
	for _, z := range secondaryZones(in) {
		zones = append(zones, map[string]string{"ZoneId": z})
	}
	return map[string]any{"SlaveZone": zones}
}

// secondaryZones are the zones of the instance's secondary nodes: none for Basic, its own zone unless they were placed.
func secondaryZones(in *instance) []string {
	if strings.EqualFold(in.Category, "Basic") || strings.HasPrefix(strings.ToLower(in.Category), "serverless_basic") {
		return nil
	}
	if len(in.SlaveZones) > 0 {
		return in.SlaveZones
	}
	return []string{in.ZoneID}
}

// vpcCloudInstanceID is VpcCloudInstanceId: the instance's id in its VPC, empty on the classic
// network.
func vpcCloudInstanceID(in *instance) string {
	if in.NetworkType != "VPC" {
		return ""
	}
	return in.ID
}
