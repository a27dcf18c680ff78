#!/usr/bin/env bash
# `terraform query -generate-config-out` against a fleet of 50 instances (issue 28): a configuration applies the
# fleet (tags on all; a pinned minor version, a second zone, a subscription or storage autoscaling on one in five each) to
# bin/rds-simulator, a second directory lists it (instances and backup policies) and generates resource and
# import blocks, and the generated configuration must validate, plan 50 imports with no change, and plan empty once the
# imports are applied. Needs Terraform 1.14+ ($TERRAFORM; `make test-modern` passes its Terraform 1.15 build).
# Offline: bin/ through dev_overrides.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
tool="${TERRAFORM:?set TERRAFORM to a Terraform 1.14+ binary}"
fleet=50
scratch="$(mktemp -d)"
sim_pid=""
cleanup() {
  [[ -n "$sim_pid" ]] && kill "$sim_pid" 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT

go build -o "$scratch/bin/terraform-provider-rds" .
go build -o "$scratch/rds-simulator" ./internal/cmd/rds-simulator
"$scratch/rds-simulator" -create-duration 0s -restart-duration 0s -delete-duration 0s -flag-lag 0s -account-duration 0s \
  -mysql-endpoints=false >"$scratch/sim.log" 2>&1 &
sim_pid=$!
endpoint=""
for _ in $(seq 1 100); do
  endpoint="$(sed -n 's/^listening on //p' "$scratch/sim.log" | head -n1)"
  [[ -n "$endpoint" ]] && break
  sleep 0.1
done
[[ -n "$endpoint" ]] || { echo "the simulator did not start" >&2; exit 1; }
cat >"$scratch/cli.tfrc" <<EOF
provider_installation {
  dev_overrides {
    "registry.terraform.io/openrds/rds" = "$scratch/bin"
  }
  direct {}
}
EOF
export TF_CLI_CONFIG_FILE="$scratch/cli.tfrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1 ALIBABA_CLOUD_RDS_ENDPOINT="$endpoint" \
  ALIBABA_CLOUD_ACCESS_KEY_ID=demo-access-key-id ALIBABA_CLOUD_ACCESS_KEY_SECRET=demo-access-key-secret \
  ALIBABA_CLOUD_REGION=cn-hangzhou
providers='terraform {
  required_providers {
    rds = { source = "openrds/rds" }
  }
}
provider "rds" {}'

mkdir -p "$scratch/fleet" "$scratch/adopt"
cat >"$scratch/fleet/main.tf" <<EOF
$providers
resource "rds_instance" "fleet" {
  count          = $fleet
  engine         = "MySQL"
  engine_version = count.index % 10 == 9 ? "5.7" : "8.0"
  instance_type  = "mysql.n2.medium.2c"
  storage        = 20 + 5 * (count.index % 3)
  instance_name  = format("fleet-%02d", count.index)
  tags           = { fleet = "query", shard = tostring(count.index % 4) }
  # The features added since the first fleet (issue 25 and 27), one in five instances each.
  target_minor_version       = count.index % 5 == 1 ? "rds_20230630" : null
  auto_upgrade_minor_version = count.index % 5 == 1 ? "Manual" : null
  zone_id                    = count.index % 5 == 2 ? "cn-hangzhou-j" : null
  zone_id_slave_a            = count.index % 5 == 2 ? "cn-hangzhou-k" : null
  vswitch_id                 = count.index % 5 == 2 ? "vsw-fleet-j" : null
  billing                    = count.index % 5 == 3 ? { pay_type = "Prepaid", period = "Month", used_time = 1, auto_renew = true } : null
  prepaid_on_destroy         = count.index % 5 == 3 ? "convert_and_delete" : null
  storage_auto_scale         = count.index % 5 == 4 ? { threshold = 30, upper_bound = 200 } : null
}
EOF
"$tool" -chdir="$scratch/fleet" apply -input=false -auto-approve -parallelism=5 >"$scratch/fleet.log" 2>&1 ||
  { tail -n 40 "$scratch/fleet.log" >&2; exit 1; }

echo "$providers" >"$scratch/adopt/main.tf"
cat >"$scratch/adopt/fleet.tfquery.hcl" <<'EOF'
list "rds_instance" "fleet" {
  provider = rds
  include_resource = true
  config {
    name_regex = "^fleet-"
  }
}
list "rds_backup_policy" "fleet" {
  provider = rds
  include_resource = true
  config {
    name_regex = "^fleet-"
  }
}
EOF
"$tool" -chdir="$scratch/adopt" query -generate-config-out=generated.tf >"$scratch/query.log" 2>&1 ||
  { cat "$scratch/query.log" >&2; exit 1; }
for type in rds_instance rds_backup_policy; do
  blocks="$(grep -c "^resource \"$type\"" "$scratch/adopt/generated.tf" || true)"
  if [[ "$blocks" -ne $fleet ]]; then
    cat "$scratch/query.log" >&2
    echo "FAIL: terraform query generated $blocks $type blocks, want $fleet" >&2
    exit 1
  fi
done
# The generated blocks carry the features the fleet has (the pinned target_minor_version and billing are settings an
# import does not manage: the generated configuration leaves them unset, and they stay as they are in the cloud).
for check in "$fleet|tags *= *\\{|tags" "$((fleet / 5))|auto_upgrade_minor_version *= *\"Manual\"|Manual minor upgrades" \
  "$((fleet / 5))|zone_id_slave_a *= *\"cn-hangzhou-k\"|secondary zones" "$((fleet / 5))|storage_auto_scale *= *\\{|storage autoscaling" \
  "$((fleet / 5))|upper_bound *= *200|autoscaling upper bounds" "$((fleet / 5))|vswitch_id *= *\"vsw-fleet-j\"|vSwitches"; do
  IFS='|' read -r want pattern what <<<"$check"
  got="$(grep -cE "$pattern" "$scratch/adopt/generated.tf" || true)"
  if [[ "$got" -ne "$want" ]]; then
    grep -B2 -A40 '^resource "rds_instance"' "$scratch/adopt/generated.tf" | head -n 80 >&2
    echo "FAIL: the generated configuration has $got lines matching /$pattern/ ($what), want $want" >&2
    exit 1
  fi
done
"$tool" -chdir="$scratch/adopt" validate >"$scratch/validate.log" 2>&1 || { cat "$scratch/validate.log" >&2; exit 1; }
"$tool" -chdir="$scratch/adopt" plan -input=false -detailed-exitcode >"$scratch/plan.log" 2>&1 && rc=0 || rc=$?
if [[ $rc -eq 1 ]] || ! grep -q "$((2 * fleet)) to import, 0 to add, 0 to change, 0 to destroy" "$scratch/plan.log"; then
  head -n 60 "$scratch/adopt/generated.tf" >&2
  grep -v '^\s*$' "$scratch/plan.log" | tail -n 60 >&2
  echo "FAIL: the configuration terraform query generated does not plan $((2 * fleet)) imports and nothing else" >&2
  exit 1
fi
# Adopted: after the imports are applied, the generated configuration plans no change at all.
"$tool" -chdir="$scratch/adopt" apply -input=false -auto-approve -parallelism=5 >"$scratch/import.log" 2>&1 ||
  { tail -n 40 "$scratch/import.log" >&2; exit 1; }
"$tool" -chdir="$scratch/adopt" plan -input=false -detailed-exitcode >"$scratch/replan.log" 2>&1 && rc=0 || rc=$?
if [[ $rc -ne 0 ]]; then
  grep -v '^\s*$' "$scratch/replan.log" | tail -n 60 >&2
  echo "FAIL: after importing the $fleet instances, the generated configuration does not plan empty (exit $rc)" >&2
  exit 1
fi
echo "ok      terraform query -generate-config-out: $fleet instances and their backup policies adopted, plan empty but for the imports, then empty ($("$tool" version | head -n1))"
