package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The instance every figure uses: MySQL 8.0 on ESSD, High-availability edition, x86, bought now,
// so it is eligible for 16K atomic write and both toggles are allowed.
const (
	benchClass      = "mysql.n2.medium.2c"
	benchClassLarge = "mysql.n2.large.2c"
	benchROClass    = "mysqlro.n2.medium.1c"
)

const requiredProviders = `terraform {
  required_providers {
    rds = {
      source = "openrds/rds"
    }
  }
}

provider "rds" {}
`

// instanceBody is the common body of a bench rds_instance; name, class and flag are HCL
// expressions.
func instanceBody(name, class, flag string) string {
	return fmt.Sprintf(`  engine           = "MySQL"
  engine_version   = "8.0"
  category         = "HighAvailability"
  instance_type    = %s
  storage          = 20
  storage_type     = "cloud_essd"
  zone_id          = "cn-hangzhou-i"
  vpc_id           = "vpc-bench"
  vswitch_id       = "vsw-bench"
  instance_name    = %s
  atomic_write_16k = %s
`, class, name, flag)
}

// manyInstancesConfig is n rds_instance resources with count; the flag comes from var.flag so that
// a figure can toggle it without rewriting the file.
func manyInstancesConfig(n int) string {
	var b strings.Builder
	b.WriteString(requiredProviders)
	b.WriteString(`
variable "flag" {
  type    = bool
  default = true
}

resource "rds_instance" "bench" {
`)
	fmt.Fprintf(&b, "  count = %d\n\n", n)
	b.WriteString(instanceBody(`"bench-${count.index}"`, fmt.Sprintf("%q", benchClass), "var.flag"))
	b.WriteString("}\n\noutput \"ids\" {\n  value = rds_instance.bench[*].id\n}\n")
	return b.String()
}

// fleetExtrasConfig is manyInstancesConfig(n) with security_ips, parameters and tags set (figure
// 10): a refresh then also reads each instance's IP arrays and parameters, and the tags.
func fleetExtrasConfig(n int) string {
	extras := `  security_ips     = ["10.0.0.0/16"]
  parameters       = { innodb_io_capacity = "4000" }
  tags             = { team = "bench" }
`
	return strings.Replace(manyInstancesConfig(n), "  atomic_write_16k = var.flag\n", "  atomic_write_16k = var.flag\n"+extras, 1)
}

// terraformDataConfig is the baseline of figure 3: n built-in terraform_data resources.
func terraformDataConfig(n int) string {
	return fmt.Sprintf(`resource "terraform_data" "bench" {
  count = %d
  input = "bench-${count.index}"
}
`, n)
}

// nullProviderConfig is the floor of figure 3: n resources of a framework provider that does no work.
func nullProviderConfig(n int) string {
	return fmt.Sprintf(`terraform {
  required_providers {
    benchnull = {
      source = "openrds/benchnull"
    }
  }
}

resource "benchnull_thing" "bench" {
  count = %d
  input = "bench-${count.index}"
}
`, n)
}

// sameSchemaConfig is the second floor of figure 3: n do-nothing resources with rds_instance's
// schema and the same inputs as manyInstancesConfig.
func sameSchemaConfig(n int) string {
	var b strings.Builder
	b.WriteString(`terraform {
  required_providers {
    benchnull = {
      source = "openrds/benchnull"
    }
  }
}

resource "benchnull_instance" "bench" {
`)
	fmt.Fprintf(&b, "  count = %d\n\n", n)
	b.WriteString(instanceBody(`"bench-${count.index}"`, fmt.Sprintf("%q", benchClass), "true"))
	b.WriteString("}\n")
	return b.String()
}

// restartsConfig is figure 5: a primary with (optionally) two read-only instances, and a
// stand-alone instance for the class+flag change.
func restartsConfig(withReadOnly bool) string {
	var b strings.Builder
	b.WriteString(requiredProviders)
	b.WriteString(`
variable "primary_flag" {
  type = bool
}

variable "solo_flag" {
  type = bool
}

variable "solo_class" {
  type = string
}

resource "rds_instance" "primary" {
`)
	b.WriteString(instanceBody(`"bench-primary"`, fmt.Sprintf("%q", benchClass), "var.primary_flag"))
	b.WriteString("}\n\nresource \"rds_instance\" \"solo\" {\n")
	b.WriteString(instanceBody(`"bench-solo"`, "var.solo_class", "var.solo_flag"))
	b.WriteString("}\n")
	b.WriteString(`
output "primary_id" {
  value = rds_instance.primary.id
}

output "solo_id" {
  value = rds_instance.solo.id
}
`)
	if withReadOnly {
		// atomic_write_16k is left unset: read-only instances follow their primary.
		fmt.Fprintf(&b, `
resource "rds_readonly_instance" "ro" {
  count              = 2
  master_instance_id = rds_instance.primary.id
  engine_version     = "8.0"
  instance_type      = %q
  storage            = 20
  storage_type       = "cloud_essd"
  zone_id            = "cn-hangzhou-i"
  vswitch_id         = "vsw-bench"
  instance_name      = "bench-ro-${count.index}"
}

output "ro_ids" {
  value = rds_readonly_instance.ro[*].id
}
`, benchROClass)
	}
	return b.String()
}

// writeConfig creates dir with main.tf.
func writeConfig(dir, content string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "main.tf"), []byte(content), 0o644)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
