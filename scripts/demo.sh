#!/usr/bin/env bash
# make demo: build the provider and the simulator, start the simulator, then plan/apply
# examples/quickstart through a dev_overrides CLI config (no registry, no network), toggle 16K
# atomic write in a second apply, destroy, and stop the simulator.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
TERRAFORM="${TERRAFORM:-$(command -v terraform || true)}"
if [[ -z "$TERRAFORM" ]]; then
  echo "terraform is not on PATH: install Terraform 1.x (or set TERRAFORM=/path/to/terraform)" >&2
  exit 1
fi
GO="${GO:-go}"

demo="$root/.demo"
work="$demo/quickstart"
RESTART_DURATION="${RESTART_DURATION:-3s}"

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

step "Building bin/terraform-provider-rds and bin/rds-simulator"
"$GO" build -o bin/terraform-provider-rds .
"$GO" build -o bin/rds-simulator ./internal/cmd/rds-simulator

rm -rf "$demo"
mkdir -p "$work"
cp examples/quickstart/*.tf "$work/"

step "Starting the simulator (state in .demo/simulator.json, restarts take $RESTART_DURATION)"
./bin/rds-simulator -state "$demo/simulator.json" -create-duration 3s -restart-duration "$RESTART_DURATION" \
  -delete-duration 2s -flag-lag 1s -account-duration 1s >"$demo/simulator.log" 2>&1 &
sim_pid=$!

tf() { "$TERRAFORM" -chdir="$work" "$@"; }

destroyed=0
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [[ $destroyed -eq 0 && -f "$work/terraform.tfstate" ]] && kill -0 "$sim_pid" 2>/dev/null; then
    echo "cleaning up: destroying the demo instance" >&2
    tf destroy -auto-approve -input=false >/dev/null 2>&1 || true
  fi
  if kill -0 "$sim_pid" 2>/dev/null; then
    kill "$sim_pid" 2>/dev/null || true
    wait "$sim_pid" 2>/dev/null || true
  fi
  exit "$rc"
}
trap cleanup EXIT INT TERM

endpoint=""
for _ in $(seq 1 100); do
  endpoint="$(sed -n 's/^listening on //p' "$demo/simulator.log" | head -n1)"
  [[ -n "$endpoint" ]] && break
  if ! kill -0 "$sim_pid" 2>/dev/null; then
    echo "the simulator exited:" >&2
    cat "$demo/simulator.log" >&2
    exit 1
  fi
  sleep 0.1
done
if [[ -z "$endpoint" ]]; then
  echo "the simulator did not start in 10 s; see $demo/simulator.log" >&2
  exit 1
fi
echo "simulator listening on $endpoint"

# dev_overrides: Terraform uses ./bin directly, no `terraform init` and no registry access. `openrds/rds` resolves
# to registry.terraform.io under Terraform and to registry.opentofu.org under OpenTofu: override both.
cat >"$demo/terraformrc" <<EOF
provider_installation {
  dev_overrides {
    "registry.terraform.io/openrds/rds"  = "$root/bin"
    "registry.opentofu.org/openrds/rds" = "$root/bin"
  }
  direct {}
}
EOF
export TF_CLI_CONFIG_FILE="$demo/terraformrc"
export CHECKPOINT_DISABLE=1
export TF_IN_AUTOMATION=1
export ALIBABA_CLOUD_RDS_ENDPOINT="$endpoint"
export ALIBABA_CLOUD_ACCESS_KEY_ID="demo-access-key-id"
export ALIBABA_CLOUD_ACCESS_KEY_SECRET="demo-access-key-secret"
export ALIBABA_CLOUD_REGION="cn-hangzhou"
unset ALICLOUD_ACCESS_KEY ALICLOUD_SECRET_KEY ALIBABA_CLOUD_SECURITY_TOKEN ALICLOUD_SECURITY_TOKEN ALIBABA_CLOUD_PROFILE
# The account's password: an ephemeral variable, so it is needed at plan and at apply, and stored nowhere.
export TF_VAR_db_password="Demo-pass-$RANDOM"

step "terraform plan with a weak account password: refused at plan time, nothing sent to the cloud"
if TF_VAR_db_password=weakpassword tf plan -input=false >"$demo/weak-plan.log" 2>&1; then
  echo "the weak password was not refused" >&2
  exit 1
fi
grep -m1 -A3 "Invalid password_wo" "$demo/weak-plan.log" || true

step "terraform plan: atomic_write_16k is unset, yet the plan shows its value (on: MySQL 8.0 on ESSD, bought now)"
tf plan -input=false -out=create.tfplan

step "terraform apply: the instance, then the database, the account (waits for Available) and its grant"
tf apply -input=false create.tfplan

step "The state holds no password; the login the account can use:"
if grep -q "$TF_VAR_db_password" "$work/terraform.tfstate"; then
  echo "the password is in the state file" >&2
  exit 1
fi
echo "terraform.tfstate holds no password"
tf output login

step "terraform plan -var atomic_write_16k=false: the warning names the instance that will restart"
tf plan -input=false -var atomic_write_16k=false -out=toggle.tfplan

step "terraform apply: one ModifyDBInstanceSpec, waits for Running and the flag to read back"
tf apply -input=false toggle.tfplan

step "terraform plan -var atomic_write_16k=false again: nothing to do, no restart"
tf plan -input=false -var atomic_write_16k=false -detailed-exitcode && echo "(no changes)"

step "terraform destroy"
tf destroy -auto-approve -input=false -var atomic_write_16k=false
destroyed=1


step "Logging in as the account Terraform creates: the engine's doublewrite buffer follows atomic_write_16k"
# examples/modules/mysql-app (an instance, a database, an account with ReadWrite on it) applied as a root module;
# bin/rds-sql connects to the MySQL endpoint the simulator serves behind the instance.
"$GO" build -o bin/rds-sql ./internal/cmd/rds-sql
app="$demo/mysql-app"
mkdir -p "$app"
cp examples/modules/mysql-app/*.tf "$app/"
export TF_VAR_account_password="Demo-Passw0rd-2026" RDS_SQL_PASSWORD="Demo-Passw0rd-2026"
app_vars=(-input=false -var name=demo-app -var 'security_ips=["127.0.0.1"]')
tfapp() { "$TERRAFORM" -chdir="$app" "$@"; }
app_sql() {
  ./bin/rds-sql -addr "$(tfapp output -raw address)" -user "$(tfapp output -raw account_name)" \
    -database "$(tfapp output -raw database_name)" "$@"
}
tfapp apply -auto-approve "${app_vars[@]}" >/dev/null
echo "applied examples/modules/mysql-app: atomic_write_16k = $(tfapp output -raw atomic_write_16k), endpoint $(tfapp output -raw address)"
app_sql "CREATE TABLE visits (id INT PRIMARY KEY)" "INSERT INTO visits VALUES (1), (2), (3)" \
  "SELECT @@version AS version, @@innodb_doublewrite AS innodb_doublewrite"
tfapp apply -auto-approve "${app_vars[@]}" -var atomic_write_16k=false >/dev/null
echo "applied atomic_write_16k = $(tfapp output -raw atomic_write_16k) (one restart; the rows written before it are kept)"
app_sql "SELECT @@innodb_doublewrite AS innodb_doublewrite, COUNT(*) AS visits FROM visits"
tfapp destroy -auto-approve "${app_vars[@]}" -var atomic_write_16k=false >/dev/null
echo "destroyed the mysql-app instance"

step "Done: created, toggled, logged in, destroyed. The simulator stops now."
