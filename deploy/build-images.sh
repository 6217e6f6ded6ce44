#!/usr/bin/env bash
# Build every image deploy/compose.yaml runs; see --help. Safe to re-run: Docker's layer
# cache and a stamp on the downloaded wheels make a second run take seconds.
set -euo pipefail

LOCAL_BASE="agon-base:bookworm"
PUBLIC_BASE="python:3.11-slim-bookworm"
WHEELS="deploy/app-image/wheels"

usage() {
    cat <<EOF
Usage: deploy/build-images.sh [--public | --base IMAGE] [--no-services]

Builds the images of deploy/compose.yaml, with the repository root as build context:
  bot image   \$AGON_BOT_IMAGE (default agon-bot:latest)  deploy/bot-image/build.sh
  app image   \$AGON_APP_IMAGE (default agon-app:latest)  deploy/app-image/Dockerfile
  agon-postgres:15, agon-redis:7                          deploy/local-images/
The last two stand in for the official postgres:15-bookworm and redis:7-bookworm where
no registry is reachable: run the stack with
  AGON_POSTGRES_IMAGE=agon-postgres:15 AGON_REDIS_IMAGE=agon-redis:7

By default the bases are local: $LOCAL_BASE, a minimal Debian bookworm with python3
made with debootstrap and \`docker import\` when missing (root, the debootstrap package,
a Debian mirror; no container registry). Every image adds Debian's packages to it with
apt inside the build (a Debian mirror, over HTTP, signed): the bot and app images gcc
and Python's headers in a build stage, for the compiled cores (Akropolis',
Attika's, Megalopolis').

The app image installs the runtime part of requirements.lock, hash-checked, from wheels
this script downloads on the host into $WHEELS/ (git-ignored; again only when
the lock or pyproject.toml changed): pip on the host reaches PyPI where a build
container may not (here, a container's TLS to PyPI is not trusted), and the image
then builds offline from any base.

Options:
  --base IMAGE    base of the bot and app images (default: $LOCAL_BASE)
  --public        --base $PUBLIC_BASE --no-services: where a registry is reachable
  --no-services   do not build the local PostgreSQL and Redis images
  -h, --help      show this text
Environment: AGON_APP_IMAGE, AGON_BOT_IMAGE (image names), PYTHON (host python3 with
pip, for the download; default python3).
EOF
}

say() {
    echo "build-images: $*"
}

die() {
    echo "build-images: $*" >&2
    exit 1
}

base="$LOCAL_BASE"
services=1
while [ "$#" -gt 0 ]; do
    case "$1" in
        --base) [ "$#" -ge 2 ] || die "--base needs an image"; base="$2"; shift 2 ;;
        --public) base="$PUBLIC_BASE"; services=0; shift ;;
        --no-services) services=0; shift ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
done

cd "$(dirname "$0")/.."
app_image="${AGON_APP_IMAGE:-agon-app:latest}"
bot_image="${AGON_BOT_IMAGE:-agon-bot:latest}"
python="${PYTHON:-python3}"

command -v docker >/dev/null || die "the docker command is missing (Debian package: docker.io)"
docker info >/dev/null 2>&1 || die "no Docker engine answers (is dockerd running?)"

# --- wheels: the lock's runtime share, for the image's Python and platform -------------

# pip warns once per package about an index folder of the host's pip configuration
# that does not exist: noise here, whatever else it says is shown.
quiet_pip() {
    "$python" -m pip "$@" 2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)
}

download_wheels() {
    "$python" -m pip --version >/dev/null 2>&1 ||
        die "$python has no pip to download the wheels with (Debian package: python3-pip)"
    local arch
    case "$(uname -m)" in
        x86_64) arch=x86_64 ;;
        aarch64 | arm64) arch=aarch64 ;;
        *) die "no manylinux wheels known for $(uname -m)" ;;
    esac
    local stamp
    stamp="$(cat requirements.lock pyproject.toml deploy/app-image/requirements.py |
        sha256sum | cut -d' ' -f1)-$arch"
    if [ -f "$WHEELS/runtime.lock" ] && [ "$(cat "$WHEELS/.stamp" 2>/dev/null)" = "$stamp" ]; then
        say "wheels in $WHEELS are up to date"
        return 0
    fi
    say "downloading the runtime wheels of requirements.lock into $WHEELS"
    local work="$WHEELS.new"
    rm -rf "$work"
    mkdir -p "$work"
    "$python" deploy/app-image/requirements.py direct >"$work/direct.txt"
    "$python" deploy/app-image/requirements.py constraints >"$work/constraints.txt"
    # Bookworm's glibc is 2.36 (Debian's python3 3.11.2, the public image's 3.11.x).
    local target=(--only-binary=:all: --implementation cp --python-version 3.11 --abi cp311
        --platform "manylinux_2_36_$arch" --platform "manylinux_2_28_$arch"
        --platform "manylinux_2_17_$arch" --platform "manylinux2014_$arch")
    quiet_pip download --quiet --disable-pip-version-check --dest "$work" \
        "${target[@]}" -r "$work/direct.txt" -c "$work/constraints.txt"
    # What pip left out for judging markers on the host's Python and the oldest image
    # Python needs (redis's async-timeout below 3.11.3), until nothing is missing.
    local round more
    for round in 1 2 3; do
        more="$("$python" deploy/app-image/requirements.py missing "$work")"
        [ -n "$more" ] || break
        [ "$round" -lt 3 ] || die "still missing after $round downloads: $more"
        # shellcheck disable=SC2086 # one requirement per word
        quiet_pip download --quiet --disable-pip-version-check --dest "$work" \
            "${target[@]}" -c "$work/constraints.txt" $more
    done
    "$python" deploy/app-image/requirements.py select "$work" >"$work/runtime.lock"
    # The tools of the install (pip runs from its wheel; setuptools builds the project),
    # at their locked versions; not part of runtime.lock, so not installed as runtime.
    quiet_pip download --quiet --disable-pip-version-check --dest "$work" --no-deps \
        "${target[@]}" -c "$work/constraints.txt" pip setuptools
    rm -f "$work/direct.txt" "$work/constraints.txt"
    echo "$stamp" >"$work/.stamp"
    rm -rf "$WHEELS"
    mv "$work" "$WHEELS"
    local count=("$WHEELS"/*.whl)
    say "${#count[@]} wheels, $(du -sh "$WHEELS" | cut -f1)"
}

# --- images -----------------------------------------------------------------------------

# One build at a time (two test processes may ask at once): the wheels' folder and the
# tags are shared.
command -v flock >/dev/null || die "flock is missing (Debian package: util-linux)"
exec 9>deploy/app-image/.build.lock
flock 9

started=$SECONDS
deploy/bot-image/build.sh --base "$base" --tag "$bot_image" </dev/null
download_wheels
say "building $app_image from $base"
docker build --build-arg "BASE=$base" -f deploy/app-image/Dockerfile -t "$app_image" .
if [ "$services" -eq 1 ]; then
    docker image inspect "$LOCAL_BASE" >/dev/null 2>&1 ||
        die "$LOCAL_BASE is missing: run deploy/bot-image/build.sh once (it makes it)"
    say "building agon-postgres:15 and agon-redis:7 from $LOCAL_BASE"
    docker build --build-arg "BASE=$LOCAL_BASE" -t agon-postgres:15 deploy/local-images/postgres
    docker build --build-arg "BASE=$LOCAL_BASE" -t agon-redis:7 deploy/local-images/redis
fi
say "done in $((SECONDS - started)) s: $bot_image, $app_image$([ "$services" -eq 1 ] &&
    echo ", agon-postgres:15, agon-redis:7")"
