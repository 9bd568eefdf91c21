#!/usr/bin/env bash
# Makes the base images of the local container stack from Debian's packages, for machines that cannot
# pull images: Debian 13 (debootstrap), Node 20 for the apps, Postgres, Redis, nginx and a mail catcher.
# docker/compose.local.yml points the stack at them; production keeps the official images.
# An image already present is kept (REBUILD=1 makes them all again). Needs root; installs podman, runc,
# podman-compose and debootstrap from Debian's packages when they are missing.
set -euo pipefail

missing=()
for tool in podman runc podman-compose debootstrap; do
  command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "==> installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi

source "$(dirname "$0")/podman-env.sh"
here=$REPO_ROOT/scripts/containers
DEBIAN_SUITE=trixie
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
DEBIAN_IMAGE=$LOCAL_IMAGES/debian:$DEBIAN_SUITE

present() { [ "${REBUILD:-}" != 1 ] && podman image exists "$1"; }

make_debian() {
  present "$DEBIAN_IMAGE" && return
  echo "==> $DEBIAN_IMAGE (debootstrap --variant=minbase $DEBIAN_SUITE)"
  local root
  root=$(mktemp -d)
  trap 'rm -rf "$root"' RETURN
  debootstrap --variant=minbase "$DEBIAN_SUITE" "$root" "$DEBIAN_MIRROR" >"$CONTAINERS_STATE/debootstrap.log"
  printf 'deb %s %s main\ndeb %s %s-updates main\n' "$DEBIAN_MIRROR" "$DEBIAN_SUITE" "$DEBIAN_MIRROR" "$DEBIAN_SUITE" >"$root/etc/apt/sources.list"
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  tar -C "$root" -c . | podman import --change 'CMD ["bash"]' - "$DEBIAN_IMAGE" >/dev/null
}

# build <image> <Containerfile> [build arguments...]: from a context holding only what the file copies.
build() {
  local image=$1 file=$2
  shift 2
  present "$image" && return
  echo "==> $image ($file)"
  local context
  context=$(mktemp -d)
  trap 'rm -rf "$context"' RETURN
  cp "$here"/*.sh "$context"/
  if [ -s /etc/ssl/certs/ca-certificates.crt ]; then
    cp /etc/ssl/certs/ca-certificates.crt "$context/build-host-ca.crt"
  else
    : >"$context/build-host-ca.crt"
  fi
  podman build --quiet --network host --format docker -f "$here/$file" "$@" -t "$image" "$context" >/dev/null
}

make_debian
build "$NODE_IMAGE" node.Containerfile --build-arg "DEBIAN_IMAGE=$DEBIAN_IMAGE"
build "$LOCAL_IMAGES/postgres:17" postgres.Containerfile --build-arg "DEBIAN_IMAGE=$DEBIAN_IMAGE"
build "$LOCAL_IMAGES/redis:8" redis.Containerfile --build-arg "DEBIAN_IMAGE=$DEBIAN_IMAGE"
build "$LOCAL_IMAGES/nginx:1" nginx.Containerfile --build-arg "DEBIAN_IMAGE=$DEBIAN_IMAGE"
build "$LOCAL_IMAGES/mail-catcher:1" mail-catcher.Containerfile --build-arg "NODE_IMAGE=$NODE_IMAGE"
podman images --filter "reference=$LOCAL_IMAGES/*" --format '{{.Repository}}:{{.Tag}} {{.Size}}'
