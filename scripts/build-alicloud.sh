#!/usr/bin/env bash
# make alicloud-provider (issue 28): builds the real aliyun/terraform-provider-alicloud from its public source, once,
# for the end-to-end `moved` tests, and lays it out as a Terraform filesystem mirror outside the repository:
#   $RDS_CACHE_DIR/alicloud-mirror/registry.terraform.io/aliyun/alicloud/<version>/<os>_<arch>/terraform-provider-alicloud_v<version>
# (default RDS_CACHE_DIR: ~/.cache/terraform-provider-rds). It prints that mirror directory on its last line.
#
# Source: $ALICLOUD_PROVIDER_SOURCE at tag $ALICLOUD_PROVIDER_TAG (default v1.286.0). The source is a local git
# directory (bare or not; read with `git archive`) or a URL to clone. Default: the local mirror
# /work/.mirror/aliyun+terraform-provider-alicloud/repo when it exists, else GitHub.
#
# Dependencies come from the Go module proxy, except the modules listed in `local_modules` below when a local git
# checkout of their public source exists under $ALICLOUD_DEPS_MIRROR (default /work/.mirror, laid out as
# <owner>+<repo>/repo): they are read at the module's own tag and used through `replace`. The module proxy this
# project's machines reach refuses those three modules; the public proxy serves them, so a machine without the
# checkouts builds from the proxy alone. v1.286.0 is the newest release whose dependencies are all available that way
# (v1.287.0 moved to cs-20151215/v8, which neither serves); its RDS schemas differ from v1.289.0 only by
# alicloud_db_instance.force_delete (added in v1.287.0).
#
# The build is large (one package of about 2,000 Go files): it runs under `nice` and takes
# 20-40 minutes on two busy cores; a cached binary is reused. One build at a time (flock).
set -euo pipefail

tag="${ALICLOUD_PROVIDER_TAG:-v1.286.0}"
version="${tag#v}"
cache="${RDS_CACHE_DIR:-$HOME/.cache/terraform-provider-rds}"
mirror_dir="$cache/alicloud-mirror"
platform="$(go env GOOS)_$(go env GOARCH)"
bin="$mirror_dir/registry.terraform.io/aliyun/alicloud/$version/$platform/terraform-provider-alicloud_v$version"
src="$cache/src/terraform-provider-alicloud-$tag"
deps_mirror="${ALICLOUD_DEPS_MIRROR:-/work/.mirror}"
local_mirror="$deps_mirror/aliyun+terraform-provider-alicloud/repo"
source="${ALICLOUD_PROVIDER_SOURCE:-}"
if [[ -z "$source" ]]; then
  if [[ -d "$local_mirror" ]]; then source="$local_mirror"; else source=https://github.com/aliyun/terraform-provider-alicloud.git; fi
fi
# module path, the git checkout's directory under $deps_mirror
local_modules=(
  "github.com/alibabacloud-go/alibabacloud-gateway-oss alibabacloud-go+alibabacloud-gateway-oss"
  "github.com/alibabacloud-go/alibabacloud-gateway-oss-util alibabacloud-go+alibabacloud-gateway-oss-util"
  "github.com/alibabacloud-go/cs-20151215/v7 alibabacloud-go+cs-20151215"
)

fetch_source() {
  rm -rf "$src" && mkdir -p "$src"
  if [[ -d "$source" ]]; then
    git -C "$source" archive "$tag" | tar -x -C "$src"
  else
    rm -rf "$src" && git clone --quiet --depth 1 --branch "$tag" "$source" "$src"
  fi
}

# use_local_modules replaces each listed module the source requires by its public source at the required tag.
use_local_modules() {
  local entry module repo required dir
  for entry in "${local_modules[@]}"; do
    read -r module repo <<<"$entry"
    required="$(awk -v m="$module" '$1 == m && $2 ~ /^v/ { print $2; exit }' "$src/go.mod")"
    [[ -n "$required" && -d "$deps_mirror/$repo/repo" ]] || continue
    dir="$cache/src/deps/$module@$required"
    if [[ ! -f "$dir/go.mod" ]]; then
      mkdir -p "$dir" && git -C "$deps_mirror/$repo/repo" archive "$required" | tar -x -C "$dir"
    fi
    echo "using $module $required from $deps_mirror/$repo" >&2
    (cd "$src" && go mod edit -replace="$module@$required=$dir")
  done
}

mkdir -p "$cache/src"
exec 9>"$cache/build-alicloud-$tag.lock"
flock 9
if [[ ! -x "$bin" ]]; then
  echo "building terraform-provider-alicloud $tag from $source into $bin (once; 20-40 minutes)" >&2
  [[ -f "$src/go.mod" ]] || fetch_source
  use_local_modules
  mkdir -p "$(dirname "$bin")"
  (cd "$src" && nice -n 10 go build -ldflags '-s -w' -o "$bin.partial" . && mv "$bin.partial" "$bin")
fi
# A build that failed or was stopped leaves its version's directory empty; Terraform would then take that version as the
# newest in the mirror and find no binary in it ("provider binary not found").
find "$mirror_dir" -mindepth 1 -type d -empty -delete
flock -u 9
echo "$mirror_dir"
