# Sourced by the container scripts: podman settings for machines where the defaults do not work.
# - runc, not crun: crun fails to start containers on VMs that refuse setrlimit above the current limits.
# - Default ulimits no higher than this shell's own, for the same reason (podman asks for 1048576 files).
# Written to .data/containers/containers.conf and used through CONTAINERS_CONF, so nothing in /etc changes.
REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CONTAINERS_STATE=$REPO_ROOT/.data/containers
mkdir -p "$CONTAINERS_STATE"
cat > "$CONTAINERS_STATE/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=$(ulimit -Hn):$(ulimit -Hn)", "nproc=4096:4096"]

[engine]
runtime = "runc"
CONF
export CONTAINERS_CONF=$CONTAINERS_STATE/containers.conf

# The images made here from Debian's packages (scripts/containers/base-images.sh).
LOCAL_IMAGES=localhost/sesame-local
export NODE_IMAGE=${NODE_IMAGE_LOCAL:-$LOCAL_IMAGES/node:20}
