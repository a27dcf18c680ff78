#!/usr/bin/env bash
# Imports the simulator's seeded instances with `plan -generate-config-out` and checks that the generated
# configuration passes the provider's own validation and plans without changes (issue 11, 2.6), with
# Terraform and, when it is installed, OpenTofu. Then the same for an account, a database and a grant made by
# another configuration (issue 24 item 10): an account's generated configuration has no password, which keeps
# the password it has. Offline: bin/ through dev_overrides, nothing downloaded.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scratch="$(mktemp -d)"
sim_pid=""
cleanup() {
  [[ -n "$sim_pid" ]] && kill "$sim_pid" 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT

go build -o "$scratch/bin/terraform-provider-rds" .
go build -o "$scratch/rds-simulator" ./internal/cmd/rds-simulator

check() {
  local tool="$1" registry="$2" work="$scratch/$(basename "$1")"
  mkdir -p "$work"
  "$scratch/rds-simulator" -seed -state "$work/sim.json" -create-duration 0s -restart-duration 0s -delete-duration 0s \
    -flag-lag 0s >"$work/sim.log" 2>&1 &
  sim_pid=$!
  local endpoint=""
  for _ in $(seq 1 100); do
    endpoint="$(sed -n 's/^listening on //p' "$work/sim.log" | head -n1)"
    [[ -n "$endpoint" ]] && break
    sleep 0.1
  done
  [[ -n "$endpoint" ]] || { echo "the simulator did not start" >&2; exit 1; }
  cat >"$work/cli.tfrc" <<EOF
provider_installation {
  dev_overrides {
    "$registry/openrds/rds" = "$scratch/bin"
  }
  direct {}
}
EOF
  cat >"$work/main.tf" <<'EOF'
terraform {
  required_providers {
    rds = { source = "openrds/rds" }
  }
}
provider "rds" {}
import {
  to = rds_instance.legacy
  id = "rm-seedx86legacy"
}
import {
  to = rds_instance.yitian
  id = "rm-seedyitian2024"
}
import {
  to = rds_instance.basic
  id = "rm-seedbasic"
}
EOF
  export TF_CLI_CONFIG_FILE="$work/cli.tfrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1 ALIBABA_CLOUD_RDS_ENDPOINT="$endpoint" \
    ALIBABA_CLOUD_ACCESS_KEY_ID=demo-access-key-id ALIBABA_CLOUD_ACCESS_KEY_SECRET=demo-access-key-secret \
    ALIBABA_CLOUD_REGION=cn-hangzhou
  "$tool" -chdir="$work" plan -input=false -generate-config-out=generated.tf >"$work/generate.log" 2>&1 ||
    { cat "$work/generate.log" >&2; exit 1; }
  "$tool" -chdir="$work" plan -input=false -detailed-exitcode >"$work/plan.log" 2>&1 && rc=0 || rc=$?
  # 2 = changes present: the imports themselves, nothing else.
  if [[ $rc -eq 1 ]] || ! grep -q "3 to import, 0 to add, 0 to change, 0 to destroy" "$work/plan.log"; then
    cat "$work/generated.tf" "$work/plan.log" >&2
    echo "FAIL: $tool: the generated configuration does not plan cleanly" >&2
    exit 1
  fi
  echo "ok      generated configuration with $("$tool" version | head -n1)"
  check_access "$tool" "$work"
  kill "$sim_pid" 2>/dev/null || true
  wait "$sim_pid" 2>/dev/null || true
  sim_pid=""
}

# check_access makes an account, a database and a grant in one configuration and adopts them in another.
check_access() {
  local tool="$1" make="$2/access-make" adopt="$2/access-adopt"
  local providers='terraform {
  required_providers {
    rds = { source = "openrds/rds" }
  }
}
provider "rds" {}'
  mkdir -p "$make" "$adopt"
  cat >"$make/main.tf" <<EOF
$providers
resource "rds_account" "app" {
  instance_id = "rm-seedbasic"
  name        = "app_user"
  password    = "Generated-pass1"
  description = "Application account"
}
resource "rds_database" "orders" {
  instance_id = "rm-seedbasic"
  name        = "orders"
}
resource "rds_account_privilege" "app_orders" {
  instance_id  = "rm-seedbasic"
  account_name = rds_account.app.name
  privilege    = "ReadWrite"
  db_names     = [rds_database.orders.name]
}
EOF
  "$tool" -chdir="$make" apply -input=false -auto-approve >"$make/apply.log" 2>&1 || { cat "$make/apply.log" >&2; exit 1; }
  cat >"$adopt/main.tf" <<EOF
$providers
import {
  to = rds_account.app
  id = "rm-seedbasic:app_user"
}
import {
  to = rds_database.orders
  id = "rm-seedbasic:orders"
}
import {
  to = rds_account_privilege.app_orders
  id = "rm-seedbasic:app_user:ReadWrite"
}
EOF
  "$tool" -chdir="$adopt" plan -input=false -generate-config-out=generated.tf >"$adopt/generate.log" 2>&1 ||
    { cat "$adopt/generate.log" >&2; exit 1; }
  "$tool" -chdir="$adopt" plan -input=false -detailed-exitcode >"$adopt/plan.log" 2>&1 && rc=0 || rc=$?
  if [[ $rc -eq 1 ]] || ! grep -q "3 to import, 0 to add, 0 to change, 0 to destroy" "$adopt/plan.log"; then
    cat "$adopt/generated.tf" "$adopt/plan.log" >&2
    echo "FAIL: $tool: the generated configuration of the account, database and grant does not plan cleanly" >&2
    exit 1
  fi
  echo "ok      generated configuration of an account, a database and a grant"
}

check "${TERRAFORM:-$(command -v terraform)}" registry.terraform.io
if command -v tofu >/dev/null; then
  check "$(command -v tofu)" registry.opentofu.org
fi
