#!/usr/bin/env bash
# make test-modules: runs `terraform test` in every examples/modules/* that has a tests/ directory, with the local
# provider build (dev_overrides, nothing downloaded). Suites with mock_provider run first, with no simulator and no
# endpoint or credentials, on Terraform and, when TOFU names an OpenTofu binary, on OpenTofu; the other suites then
# run against a fresh bin/rds-simulator with short transitions.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
terraform=${TF_ACC_TERRAFORM_PATH:-$(command -v terraform)}
tofu=${TOFU:-}

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

cat >"$scratch/cli.tfrc" <<CFG
provider_installation {
  dev_overrides {
    "registry.terraform.io/openrds/rds"  = "$root/bin"
    "registry.opentofu.org/openrds/rds" = "$root/bin"
  }
  direct {}
}
CFG
export TF_CLI_CONFIG_FILE="$scratch/cli.tfrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
unset ALIBABA_CLOUD_RDS_ENDPOINT ALIBABA_CLOUD_ACCESS_KEY_ID ALIBABA_CLOUD_ACCESS_KEY_SECRET ALIBABA_CLOUD_REGION \
  ALICLOUD_ACCESS_KEY ALICLOUD_SECRET_KEY ALIBABA_CLOUD_SECURITY_TOKEN ALICLOUD_SECURITY_TOKEN ALIBABA_CLOUD_PROFILE

# suites DIR mock|simulator: the -filter flags of a module's suites of one kind.
suites() {
  local f
  for f in "$1"/tests/*.tftest.hcl; do
    [[ -e "$f" ]] || continue
    if grep -q '^mock_provider' "$f"; then [[ $2 == mock ]] && echo "-filter=tests/${f##*/}"; else [[ $2 == simulator ]] && echo "-filter=tests/${f##*/}"; fi
  done
  return 0
}

failed=0
# run LABEL BINARY DIR FILTERS...: one `test` command, reported in one line.
run() {
  local label=$1 bin=$2 dir=$3
  shift 3
  [[ $# -gt 0 ]] || return 0
  if "$bin" -chdir="$dir" test -no-color "$@"; then echo "ok      $dir ($label)"; else echo "FAILED  $dir ($label)"; failed=1; fi
}

for dir in examples/modules/*/; do
  mapfile -t mock < <(suites "$dir" mock)
  run "terraform, mock_provider" "$terraform" "$dir" "${mock[@]}"
  if [[ -n "$tofu" ]]; then
    run "OpenTofu, mock_provider" "$tofu" "$dir" "${mock[@]}"
  elif [[ ${#mock[@]} -gt 0 ]]; then
    echo "skip    $dir (OpenTofu: TOFU is not set; make test-modules TOFU=/path/to/tofu runs the mock_provider suites on it too)"
  fi
done

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

export ALIBABA_CLOUD_RDS_ENDPOINT="$endpoint"
export ALIBABA_CLOUD_ACCESS_KEY_ID="demo-access-key-id"
export ALIBABA_CLOUD_ACCESS_KEY_SECRET="demo-access-key-secret"
export ALIBABA_CLOUD_REGION="cn-hangzhou"

for dir in examples/modules/*/; do
  mapfile -t simulated < <(suites "$dir" simulator)
  run "terraform, simulator" "$terraform" "$dir" "${simulated[@]}"
done
exit $failed
