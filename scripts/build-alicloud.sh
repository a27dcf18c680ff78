#!/usr/bin/env bash
# make alicloud-provider (issue 28): builds the real aliyun/terraform-provider-alicloud from its public source, once,
# for the end-to-end `moved` tests, and lays it out as a Terraform filesystem mirror outside the repository:
#   $RDS_CACHE_DIR/alicloud-mirror/registry.terraform.io/aliyun/alicloud/<version>/<os>_<arch>/terraform-provider-alicloud_v<version>
# (default RDS_CACHE_DIR: ~/.cache/terraform-provider-rds). It prints that mirror directory on its last line.
#
# Source: $ALICLOUD_PROVIDER_SOURCE at tag $ALICLOUD_PROVIDER_TAG (default v1.289.0). The source is either a local git
# directory (bare or not; read with `git archive`) or a URL to clone. Default: the local mirror
# /work/.mirror/aliyun+terraform-provider-alicloud/repo when it exists, else GitHub. Dependencies come from the Go
# module proxy. The build is large (one package of about 2,000 Go files): it runs under `nice` with one package at a
# time and takes 20-40 minutes on two busy cores; a cached binary is reused. One build at a time (flock).
set -euo pipefail

tag="${ALICLOUD_PROVIDER_TAG:-v1.289.0}"
version="${tag#v}"
cache="${RDS_CACHE_DIR:-$HOME/.cache/terraform-provider-rds}"
mirror_dir="$cache/alicloud-mirror"
platform="$(go env GOOS)_$(go env GOARCH)"
bin="$mirror_dir/registry.terraform.io/aliyun/alicloud/$version/$platform/terraform-provider-alicloud_v$version"
src="$cache/src/terraform-provider-alicloud-$tag"
local_mirror=/work/.mirror/aliyun+terraform-provider-alicloud/repo
source="${ALICLOUD_PROVIDER_SOURCE:-}"
if [[ -z "$source" ]]; then
  if [[ -d "$local_mirror" ]]; then source="$local_mirror"; else source=https://github.com/aliyun/terraform-provider-alicloud.git; fi
fi

fetch_source() {
  rm -rf "$src" && mkdir -p "$src"
  if [[ -d "$source" ]]; then
    git -C "$source" archive "$tag" | tar -x -C "$src"
  else
    rm -rf "$src" && git clone --quiet --depth 1 --branch "$tag" "$source" "$src"
  fi
}

mkdir -p "$cache/src"
exec 9>"$cache/build-alicloud-$tag.lock"
flock 9
if [[ ! -x "$bin" ]]; then
  echo "building terraform-provider-alicloud $tag from $source into $bin (once; 20-40 minutes)" >&2
  [[ -f "$src/go.mod" ]] || fetch_source
  mkdir -p "$(dirname "$bin")"
  (cd "$src" && nice -n 10 go build -p 1 -trimpath -ldflags '-s -w' -o "$bin.partial" . && mv "$bin.partial" "$bin")
fi
flock -u 9
echo "$mirror_dir"
