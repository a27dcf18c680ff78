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

failed=0
while IFS= read -r dir; do
  copy="$scratch/$(echo "${dir#examples/}" | tr / _)"
  mkdir -p "$copy"
  cp "$dir"/*.tf "$copy"/
  if ! grep -qs required_providers "$copy"/*.tf; then
    printf 'terraform {\n  required_providers {\n    rds = { source = "openrds/rds" }\n  }\n}\n' > "$copy/zz_required_providers.tf"
  fi
  if out=$("$terraform" -chdir="$copy" validate -no-color 2>&1); then
    echo "ok      $dir"
  else
    echo "INVALID $dir"; echo "$out" | grep -v -e '^$' | sed 's/^/    /'
    failed=1
  fi
done < <(find examples -name '*.tf' -printf '%h\n' | sort -u)
exit $failed
