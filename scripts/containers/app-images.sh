#!/usr/bin/env bash
# Builds the four app images (sesame/management-api, auth-api, mail-worker, console) from
# docker/Dockerfile on the Node image made by base-images.sh. Needs root and podman.
set -euo pipefail
source "$(dirname "$0")/podman-env.sh"
cd "$REPO_ROOT"

# One snapshot of the working tree (what git would commit: tracked and new files, nothing ignored), so
# that the four builds share the stages before their targets even while files change, and podman's
# layer cache keeps the dependency layer until package-lock.json changes.
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
git ls-files -z --cached --others --exclude-standard | tar --null -T - --ignore-failed-read -c 2>/dev/null | tar -C "$context" -x

# npm's download cache of this machine, so a cold build does not fetch every package again.
cache=()
[ -d "$HOME/.npm/_cacache" ] && cache=(--volume "$HOME/.npm:/root/.npm")
for app in management-api auth-api mail-worker console; do
  echo "==> sesame/$app"
  podman build --quiet --network host --format docker "${cache[@]}" \
    --ignorefile "$context/docker/Dockerfile.dockerignore" -f "$context/docker/Dockerfile" \
    --build-arg "NODE_IMAGE=$NODE_IMAGE" --target "$app" -t "sesame/$app" "$context" >/dev/null
done
podman images --filter 'reference=sesame/*' --format '{{.Repository}}:{{.Tag}} {{.Size}}'
