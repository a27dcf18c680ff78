#!/usr/bin/env bash
# make test-modern (issue 28): the identity, query, action and moved tests with a Terraform that has those features,
# the moved test with the real alicloud provider (scripts/build-alicloud.sh, `make alicloud-provider`).
# Terraform 1.15 is built from source once and cached (the module proxy's zip of hashicorp/terraform lacks its nested
# modules, so `go install` does not work; a clone does): from $TERRAFORM_SOURCE (default: the local mirror when there is
# one, else GitHub) at $TERRAFORM_MODERN_VERSION, into $RDS_CACHE_DIR (default ~/.cache/terraform-provider-rds). A cached
# binary is reused; building takes several minutes on two cores.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
version="${TERRAFORM_MODERN_VERSION:-v1.15.9}"
cache="${RDS_CACHE_DIR:-$HOME/.cache/terraform-provider-rds}"
bin="$cache/terraform-$version"
src="$cache/src/terraform-$version"
mirror=/work/.mirror/hashicorp+terraform/repo
source="${TERRAFORM_SOURCE:-}"
if [[ -z "$source" ]]; then
  if [[ -d "$mirror" ]]; then source="$mirror"; else source=https://github.com/hashicorp/terraform.git; fi
fi

mkdir -p "$cache/src"
# One build at a time: a second `make test-modern` waits for the first one's binary.
exec 9>"$cache/build-$version.lock"
flock 9
if [[ ! -x "$bin" ]]; then
  echo "building Terraform $version from $source into $bin (once; several minutes)"
  if [[ ! -d "$src/.git" && ! -f "$src/go.mod" ]]; then
    rm -rf "$src"
    git clone --quiet --depth 1 --branch "$version" "$source" "$src"
  fi
  (cd "$src" && go build -o "$bin.partial" . && mv "$bin.partial" "$bin")
fi
flock -u 9
"$bin" version | sed -n 1p  # not head: under pipefail, head closing the pipe early fails the script (SIGPIPE)

# The real alicloud provider for the end-to-end `moved` test (built once and cached: 20-40 minutes the first time,
# longer on a busy machine); ALICLOUD_PROVIDER_MIRROR may name a filesystem mirror that already holds it.
ALICLOUD_PROVIDER_MIRROR="${ALICLOUD_PROVIDER_MIRROR:-$(./scripts/build-alicloud.sh | tail -n1)}"
export ALICLOUD_PROVIDER_MIRROR

export TF_ACC=1 TF_ACC_TERRAFORM_PATH="$bin" CHECKPOINT_DISABLE=1 TF_ACC_PROVIDER_NAMESPACE="${TF_ACC_PROVIDER_NAMESPACE:-openrds}"
go test -count=1 -p 1 -timeout 20m -run 'TestAccModern|TestMoveFromAlicloud|TestList|TestAction' ./internal/provider
TERRAFORM="$bin" ./scripts/check-query-config.sh
# The action and list-resource examples validate only with Terraform 1.14+.
go build -o bin/terraform-provider-rds . && TF_ACC_TERRAFORM_PATH="$bin" ./scripts/check-examples.sh
