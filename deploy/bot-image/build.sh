#!/usr/bin/env bash
# Build the Docker image bots run in; see --help. Safe to re-run: quick when the images exist.
set -euo pipefail

LOCAL_BASE="agon-base:bookworm"
SUITE="bookworm"

usage() {
    cat <<EOF
Usage: deploy/bot-image/build.sh [--base IMAGE] [--tag IMAGE] [--rebuild-base]

Builds the image the docker sandbox runs bots in, from deploy/bot-image/Dockerfile with
the repository root as the build context.

Its base defaults to $LOCAL_BASE: a minimal Debian $SUITE with python3, made on this
machine with debootstrap and \`docker import\` the first time (needs root, the debootstrap
package and a Debian mirror; no container registry). To build from the public Python
image instead, where a registry is reachable: --base python:3.11-slim-bookworm.

Options:
  --base IMAGE     base image (default: $LOCAL_BASE, made when missing)
  --tag IMAGE      image to build (default: \$AGON_BOT_IMAGE, else agon-bot:latest)
  --rebuild-base   make $LOCAL_BASE again even if it exists
  -h, --help       show this text
EOF
}

die() {
    echo "build.sh: $*" >&2
    exit 1
}

base="$LOCAL_BASE"
tag="${AGON_BOT_IMAGE:-agon-bot:latest}"
rebuild_base=0
while [ "$#" -gt 0 ]; do
    case "$1" in
        --base) [ "$#" -ge 2 ] || die "--base needs an image"; base="$2"; shift 2 ;;
        --tag) [ "$#" -ge 2 ] || die "--tag needs an image"; tag="$2"; shift 2 ;;
        --rebuild-base) rebuild_base=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
done

cd "$(dirname "$0")/../.."

command -v docker >/dev/null || die "the docker command is missing (Debian package: docker.io)"
docker info >/dev/null 2>&1 || die "no Docker engine answers (is dockerd running?)"

rootfs=""
# A failed debootstrap can leave /proc or /sys mounted inside the tree: never delete
# through a mount point.
remove_rootfs() {
    [ -n "$rootfs" ] && [ -d "$rootfs" ] || return 0
    local mounts
    mounts="$(awk -v root="$rootfs/" 'index($2, root) == 1 { print $2 }' /proc/mounts | sort -r)"
    if [ -n "$mounts" ]; then
        # shellcheck disable=SC2086 # one mount point per word
        umount $mounts 2>/dev/null || true
    fi
    if awk -v root="$rootfs/" 'index($2, root) == 1 { found = 1 } END { exit !found }' /proc/mounts
    then
        echo "build.sh: $rootfs still has mounts inside; remove it by hand" >&2
        return 0
    fi
    rm -rf "$rootfs"
}

make_local_base() {
    [ "$(id -u)" -eq 0 ] || die "making $LOCAL_BASE needs root (debootstrap)"
    command -v debootstrap >/dev/null || die "debootstrap is missing (Debian package: debootstrap)"
    rootfs="$(mktemp -d "${TMPDIR:-/var/tmp}/agon-base.XXXXXX")"
    trap remove_rootfs EXIT
    echo "build.sh: making $LOCAL_BASE with debootstrap (a few minutes)"
    debootstrap --variant=minbase --include=python3 "$SUITE" "$rootfs"
    [ -x "$rootfs/usr/bin/python3" ] || die "debootstrap gave no /usr/bin/python3"
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
    tar --numeric-owner -C "$rootfs" -c . |
        docker import \
            --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
            --change 'CMD ["python3"]' \
            - "$LOCAL_BASE"
    remove_rootfs
    rootfs=""
}

if [ "$base" = "$LOCAL_BASE" ]; then
    if [ "$rebuild_base" -eq 1 ] || ! docker image inspect "$LOCAL_BASE" >/dev/null 2>&1; then
        make_local_base
    else
        echo "build.sh: $LOCAL_BASE exists"
    fi
fi

docker build --build-arg "BASE=$base" -f deploy/bot-image/Dockerfile -t "$tag" .
echo "build.sh: built $tag from $base"
