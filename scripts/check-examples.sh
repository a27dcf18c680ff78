#!/usr/bin/env bash
# Checks every example: `terraform fmt -check`, then `terraform validate` against the local provider build
# (bin/terraform-provider-rds through dev_overrides, so nothing is downloaded). Registry-style snippets that
# carry no terraform block get one in a scratch copy, since Terraform would otherwise look for hashicorp/rds.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
terraform=${TF_ACC_TERRAFORM_PATH:-$(command -v terraform)}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cat > "$scratch/cli.tfrc" <<CFG
provider_installation {
  dev_overrides {
    "registry.terraform.io/openrds/rds"  = "$root/bin"
    "registry.opentofu.org/openrds/rds" = "$root/bin"
  }
  direct {}
}
CFG
export TF_CLI_CONFIG_FILE="$scratch/cli.tfrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1

"$terraform" fmt -check -recursive -diff examples/

# Actions (examples/actions) and list resources (examples/list-resources, .tfquery.hcl) need Terraform 1.14+:
# older CLIs skip them, and `make test-modern` checks them with its Terraform 1.15.
modern=0
minor="$("$terraform" version -json | sed -n 's/.*"terraform_version": *"1\.\([0-9]*\).*/\1/p')"
[[ -n "$minor" && "$minor" -ge 14 ]] && modern=1

failed=0
while IFS= read -r dir; do
  case "$dir" in examples/actions/* | examples/list-resources/*)
    if [[ $modern -eq 0 ]]; then echo "skip    $dir (needs Terraform 1.14+)"; continue; fi ;;
  esac
  copy="$scratch/$(echo "${dir#examples/}" | tr / _)"
  mkdir -p "$copy"
  cp "$dir"/*.tf "$dir"/*.tfquery.hcl "$copy"/ 2>/dev/null || true
  if ! grep -qs required_providers "$copy"/*.tf; then
    printf 'terraform {\n  required_providers {\n    rds = { source = "openrds/rds" }\n  }\n}\n' > "$copy/zz_required_providers.tf"
  fi
  query=()
  [[ $modern -eq 1 ]] && query=(-query)
  if out=$("$terraform" -chdir="$copy" validate -no-color "${query[@]}" 2>&1); then
    echo "ok      $dir"
  else
    echo "INVALID $dir"; echo "$out" | grep -v -e '^$' | sed 's/^/    /'
    failed=1
  fi
done < <(find examples \( -name '*.tf' -o -name '*.tfquery.hcl' \) -printf '%h\n' | sort -u)
exit $failed
