package simulator

import (
	"regexp"
	"slices"
	"strings"
)

// Engines and their versions the simulator accepts.
var engineVersions = map[string][]string{
	"MySQL":      {"5.5", "5.6", "5.7", "8.0", "8.4"},
	"PostgreSQL": {"10.0", "11.0", "12.0", "13.0", "14.0", "15.0", "16.0", "17.0"},
	"MariaDB":    {"10.3", "10.6"},
	"SQLServer":  {"2012", "2014", "2016", "2017", "2019", "2022"},
}

var storageTypes = []string{"local_ssd", "cloud_ssd", "cloud_essd", "cloud_essd2", "cloud_essd3", "general_essd"}

var categories = []string{"Basic", "HighAvailability", "cluster", "AlwaysOn", "Finance", "serverless_basic", "serverless_standard", "serverless_ha"}

// classPrefixes are the class-name prefixes per engine.
var classPrefixes = map[string][]string{
	"MySQL":      {"mysql", "mysqlro"},
	"PostgreSQL": {"pg", "pgro"},
	"MariaDB":    {"mariadb"},
	"SQLServer":  {"mssql", "rds.mssql"},
}

// classPattern is <engine>.<family>.<size>[.<suffix>] (SQL Server classes start with rds.mssql).
var classPattern = regexp.MustCompile(`^[a-z]+(\.[a-z0-9]+){2,4}$`)

// canonicalEngine returns the canonical spelling of an engine name, or "".
func canonicalEngine(v string) string {
	for name := range engineVersions {
		if strings.EqualFold(v, name) {
			return name
		}
	}
	return ""
}

func validVersion(engine, version string) bool {
	for _, v := range engineVersions[engine] {
		if v == version {
			return true
		}
	}
	return false
}

// validClass checks the class name's shape and its engine prefix.
func validClass(engine, class string) bool {
	if len(class) > 64 || !classPattern.MatchString(class) {
		return false
	}
	for _, prefix := range classPrefixes[engine] {
		if strings.HasPrefix(class, prefix+".") {
			return true
		}
	}
	return false
}

// Storage sizes (GB) run from minStorage to maxStorage(type) in steps of storageStep.
const minStorage, storageStep = 20, 5

func maxStorage(storageType string) int64 {
	if storageType == "local_ssd" {
		return 2000
	}
	return 32000
}

func errStorage(name string, v int64, storageType string) *apiError {
	return errInvalid(name, "%d GB is outside %d-%d GB in steps of %d for %s", v, minStorage, maxStorage(storageType), storageStep, storageType)
}

func validStorage(v int64, storageType string) bool {
	return v >= minStorage && v <= maxStorage(storageType) && v%storageStep == 0
}

// classCatalogue answers DescribeAvailableClasses: MySQL by category (read-only classes come with
// HighAvailability, or alone with CommodityCode rords), PostgreSQL a small general list.
var classCatalogue = struct {
	haX86, haYiTian, basic, cluster, readOnly, postgres []string
}{
	haX86:    []string{"mysql.n2.medium.2c", "mysql.n2.large.2c", "mysql.n4.medium.2c", "mysql.x2.large.2c", "mysql.x4.medium.2c", "mysql.x4.large.2c"},
	haYiTian: []string{"mysql.n2m.medium.2c", "mysql.n2m.large.2c", "mysql.x2m.large.2c", "mysql.x4m.medium.2c"},
	basic:    []string{"mysql.n2.medium.1", "mysql.n2.large.1"},
	cluster:  []string{"mysql.n2.medium.xc", "mysql.n2e.medium.xc", "mysql.x2e.large.xc"},
	readOnly: []string{"mysqlro.n2.medium.1c", "mysqlro.n2.large.1c", "mysqlro.n2m.small.1c", "mysqlro.x2m.large.1c"},
	postgres: []string{"pg.n2.medium.2c", "pg.n2.large.2c"},
}

// availableClasses lists the offered classes; YiTian classes need cloud disks.
func availableClasses(engine, category, storageType, commodityCode string) []string {
	var out []string
	cloud := storageType != "local_ssd"
	keep := func(classes []string) {
		for _, c := range classes {
			if cloud || architecture(c) == "x86" {
				out = append(out, c)
			}
		}
	}
	switch engine {
	case "MySQL":
		if strings.HasPrefix(strings.ToLower(commodityCode), "rords") {
			keep(classCatalogue.readOnly)
			break
		}
		switch strings.ToLower(category) {
		case "highavailability":
			keep(classCatalogue.haX86)
			keep(classCatalogue.haYiTian)
			keep(classCatalogue.readOnly)
		case "basic":
			keep(classCatalogue.basic)
		case "cluster":
			keep(classCatalogue.cluster)
		}
	case "PostgreSQL":
		if strings.EqualFold(category, "HighAvailability") || strings.EqualFold(category, "Basic") {
			keep(classCatalogue.postgres)
		}
	}
	return out
}

// offered reports whether a spec change to class on storageType stays within what
// DescribeAvailableClasses lists for the instance (read-only instances: the read-only classes), so
// the simulator never accepts a change its own catalogue does not offer. Engines without a
// catalogue here are not checked.
func offered(in *instance, class, storageType string) bool {
	code := ""
	if in.MasterID != "" {
		code = "rords"
	}
	list := availableClasses(in.Engine, in.Category, storageType, code)
	return len(list) == 0 || slices.Contains(list, class)
}
