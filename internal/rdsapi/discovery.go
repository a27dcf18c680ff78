package rdsapi

import "context"

// Discovery: which zones offer an engine, and what each class of the region is (issue 43).
// DescribeAvailableClasses (client.go) lists the classes of one combination in one zone.

// DescribeAvailableZonesRequest asks which zones offer an engine (and optionally a version).
type DescribeAvailableZonesRequest struct {
	RegionID      string
	Engine        string
	EngineVersion string
	Category      string
	// CommodityCode is bards (pay-as-you-go) when empty.
	CommodityCode string
}

// DescribeAvailableZonesResponse lists the zones, each with the engine versions, editions and
// storage types it offers. A multi-zone entry has an id such as cn-hangzhou-MAZ6(b,c).
type DescribeAvailableZonesResponse struct {
	RequestID      string          `json:"RequestId"`
	AvailableZones []AvailableZone `json:"AvailableZones"`
}

// AvailableZone is one zone (or multi-zone combination) and what it offers.
type AvailableZone struct {
	RegionID         string `json:"RegionId"`
	ZoneID           string `json:"ZoneId"`
	SupportedEngines []struct {
		Engine                  string `json:"Engine"`
		SupportedEngineVersions []struct {
			Version            string `json:"Version"`
			SupportedCategorys []struct {
				Category              string `json:"Category"`
				SupportedStorageTypes []struct {
					StorageType string `json:"StorageType"`
				} `json:"SupportedStorageTypes"`
			} `json:"SupportedCategorys"`
		} `json:"SupportedEngineVersions"`
	} `json:"SupportedEngines"`
}

// ListClassesRequest asks for the details of every class of the region.
type ListClassesRequest struct {
	RegionID string
	// CommodityCode is bards (pay-as-you-go) when empty; OrderType is BUY when empty.
	CommodityCode, OrderType string
	// EngineType narrows the answer to one engine (e.g. MySQL).
	EngineType string
}

// ListClassesResponse lists class details; numbers come as strings.
type ListClassesResponse struct {
	RequestID string      `json:"RequestId"`
	Items     []ClassItem `json:"Items"`
}

// ClassItem is one class: CPU cores, memory in GB, connection and IOPS ceilings, and the
// architecture (arm, or empty for x86).
type ClassItem struct {
	ClassCode          string     `json:"ClassCode"`
	ClassGroup         string     `json:"ClassGroup"`
	Cpu                FlexString `json:"Cpu"`
	MemoryClass        FlexString `json:"MemoryClass"`
	MaxConnections     FlexString `json:"MaxConnections"`
	MaxIOPS            FlexString `json:"MaxIOPS"`
	InstructionSetArch string     `json:"InstructionSetArch"`
}

// CommodityCodePostpaid is the commodity code of a pay-as-you-go primary instance.
const CommodityCodePostpaid = "bards"

// DescribeAvailableZones lists the zones that offer an engine.
func (c *Client) DescribeAvailableZones(ctx context.Context, req *DescribeAvailableZonesRequest) (*DescribeAvailableZonesResponse, error) {
	p := params{}
	p.set("RegionId", firstNonEmpty(req.RegionID, c.regionID))
	p.set("Engine", req.Engine)
	p.set("EngineVersion", req.EngineVersion)
	p.set("Category", req.Category)
	p.set("CommodityCode", firstNonEmpty(req.CommodityCode, CommodityCodePostpaid))
	var out DescribeAvailableZonesResponse
	if err := c.call(ctx, "DescribeAvailableZones", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ListClasses lists the details of the region's classes.
func (c *Client) ListClasses(ctx context.Context, req *ListClassesRequest) (*ListClassesResponse, error) {
	p := params{}
	p.set("RegionId", firstNonEmpty(req.RegionID, c.regionID))
	p.set("CommodityCode", firstNonEmpty(req.CommodityCode, CommodityCodePostpaid))
	p.set("OrderType", firstNonEmpty(req.OrderType, "BUY"))
	p.set("EngineType", req.EngineType)
	var out ListClassesResponse
	if err := c.call(ctx, "ListClasses", p, true, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
