#!/usr/bin/env bash
# make test-modules: runs `terraform test` in every examples/modules/* that has a tests/ directory, against a fresh
# bin/rds-simulator with short transitions and the local provider build (dev_overrides, nothing downloaded).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
terraform=${TF_ACC_TERRAFORM_PATH:-$(command -v terraform)}

scratch=$(mktemp -d)
sim_pid=""
cleanup() {
  if [[ -n "$sim_pid" ]] && kill -0 "$sim_pid" 2>/dev/null; then
    kill "$sim_pid" 2>/dev/null || true
    wait "$sim_pid" 2>/dev/null || true
  fi
  rm -rf "$scratch"
}
trap cleanup EXIT INT TERM

./bin/rds-simulator -create-duration 300ms -restart-duration 300ms -delete-duration 200ms -flag-lag 100ms \
  -account-duration 100ms >"$scratch/simulator.log" 2>&1 &
sim_pid=$!
endpoint=""
for _ in $(seq 1 100); do
  endpoint="$(sed -n 's/^listening on //p' "$scratch/simulator.log" | head -n1)"
  [[ -n "$endpoint" ]] && break
  kill -0 "$sim_pid" 2>/dev/null || { cat "$scratch/simulator.log" >&2; exit 1; }
  sleep 0.1
done
[[ -n "$endpoint" ]] || { echo "the simulator did not start in 10 s" >&2; exit 1; }

cat >"$scratch/cli.tfrc" <<CFG
provider_installation {
  dev_overrides {
    "openrds/rds" = "$root/bin"
  }
  direct {}
}
CFG
export TF_CLI_CONFIG_FILE="$scratch/cli.tfrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
export ALIBABA_CLOUD_RDS_ENDPOINT="$endpoint"
export ALIBABA_CLOUD_ACCESS_KEY_ID="demo-access-key-id"
export ALIBABA_CLOUD_ACCESS_KEY_SECRET="demo-access-key-secret"
export ALIBABA_CLOUD_REGION="cn-hangzhou"
unset ALICLOUD_ACCESS_KEY ALICLOUD_SECRET_KEY ALIBABA_CLOUD_SECURITY_TOKEN ALICLOUD_SECURITY_TOKEN ALIBABA_CLOUD_PROFILE

failed=0
for dir in examples/modules/*/; do
  [[ -d "$dir/tests" ]] || continue
  if "$terraform" -chdir="$dir" test -no-color; then
    echo "ok      $dir"
  else
    echo "FAILED  $dir"
    failed=1
  fi
done
exit $failed
