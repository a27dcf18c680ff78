package rdsservice

import (
	"embed"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // zone names resolve the same on every machine: the functions are pure

	"github.com/openrds/terraform-provider-rds/internal/rdsapi"
)

// The window and parameter functions: maintenance_window_utc and parameter_restarts.

var localWindowPattern = regexp.MustCompile(`^([01][0-9]|2[0-3]):([0-5][0-9])-([01][0-9]|2[0-3]):([0-5][0-9])$`)

// MaintenanceWindowUTC turns a local daily window ("02:00-03:00") in a time zone into the
// HH:mmZ-HH:mmZ form maintenance_window takes, and checks it as the plan does.
func MaintenanceWindowUTC(window, zone string) (string, []Problem) {
	offset, p := zoneOffset(zone)
	if p != nil {
		return "", []Problem{*p}
	}
	m := localWindowPattern.FindStringSubmatch(strings.TrimSpace(window))
	if m == nil {
		return "", []Problem{problem(RuleMaintenanceWindowFormat, window, fmt.Sprintf("%q is not HH:mm-HH:mm in time_zone %s (for example \"02:00-03:00\")", window, zone))}
	}
	utc := func(h, mm string) string {
		hv, _ := strconv.Atoi(h)
		mv, _ := strconv.Atoi(mm)
		minutes := ((hv*60+mv-offset)%(24*60) + 24*60) % (24 * 60)
		return fmt.Sprintf("%02d:%02dZ", minutes/60, minutes%60)
	}
	out := utc(m[1], m[2]) + "-" + utc(m[3], m[4])
	if problems := CheckMaintenanceWindow(Known(out)); len(problems) > 0 {
		return "", problems
	}
	return out, nil
}

var offsetPattern = regexp.MustCompile(`^(?:UTC|GMT)?([+-])([01]?[0-9]):?([0-5][0-9])?$`)

// zoneOffset is a time zone's offset from UTC in minutes: UTC, an offset (+08:00, UTC+8) or a
// zone name whose offset does not change over the year (a daily window in a zone with daylight
// saving time moves in UTC twice a year, and the API takes one UTC window).
func zoneOffset(zone string) (int, *Problem) {
	zone = strings.TrimSpace(zone)
	if strings.EqualFold(zone, "UTC") || zone == "Z" {
		return 0, nil
	}
	if m := offsetPattern.FindStringSubmatch(zone); m != nil {
		h, _ := strconv.Atoi(m[2])
		mm, _ := strconv.Atoi(m[3] + "0")
		minutes := h*60 + mm/10
		if m[1] == "-" {
			minutes = -minutes
		}
		return minutes, nil
	}
	loc, err := time.LoadLocation(zone)
	if err != nil || zone == "" || zone == "Local" {
		p := problem(RuleTimeZone, zone, fmt.Sprintf("%q is not UTC, an offset such as +08:00, or a time zone name", zone))
		return 0, &p
	}
	_, winter := time.Date(2026, 1, 15, 12, 0, 0, 0, loc).Zone()
	_, summer := time.Date(2026, 7, 15, 12, 0, 0, 0, loc).Zone()
	if winter != summer {
		p := problem(RuleTimeZone, zone, fmt.Sprintf("%s changes its offset over the year (UTC%+g in January, UTC%+g in July)", zone, float64(winter)/3600, float64(summer)/3600))
		return 0, &p
	}
	return winter / 60, nil
}

//go:embed templates/*.json
var embeddedTemplates embed.FS

// EmbeddedTemplate is the MySQL parameter template of an engine version compiled into the
// provider (templates/, DescribeParameterTemplates answers); ok is false for other versions.
func EmbeddedTemplate(version string) (ParameterTemplate, bool) {
	raw, err := embeddedTemplates.ReadFile("templates/mysql-" + version + ".json")
	if err != nil {
		return ParameterTemplate{}, false
	}
	var answer rdsapi.DescribeParameterTemplatesResponse
	if err := json.Unmarshal(raw, &answer); err != nil {
		panic(fmt.Sprintf("embedded template mysql-%s: %v", version, err)) // a build defect, caught by the tests
	}
	return TemplateFromAPI("MySQL", version, &answer), true
}

// EmbeddedTemplateVersions lists the versions EmbeddedTemplate knows, sorted.
func EmbeddedTemplateVersions() []string {
	entries, _ := embeddedTemplates.ReadDir("templates")
	var versions []string
	for _, e := range entries {
		versions = append(versions, strings.TrimSuffix(strings.TrimPrefix(e.Name(), "mysql-"), ".json"))
	}
	return versions
}

// ParameterRestarts says whether changing a MySQL parameter restarts the instance (P5), from the
// embedded template, with the plan's P1 and P2 refusals for a name it would refuse.
func ParameterRestarts(name, version string) (bool, []Problem) {
	t, ok := EmbeddedTemplate(version)
	if !ok {
		return false, []Problem{problem(RuleParamTemplateVersion, version, version, strings.Join(EmbeddedTemplateVersions(), ", "))}
	}
	var errs []Problem
	for _, p := range CheckParameters(map[string]string{name: t.Parameters[name].Default}, nil, t, Unknown[bool]()) {
		if p.Severity == SeverityError {
			errs = append(errs, p)
		}
	}
	if len(errs) > 0 {
		return false, errs
	}
	return t.Restarts(name), nil
}
