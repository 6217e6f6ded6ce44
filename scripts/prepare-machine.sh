#!/usr/bin/env bash
# Make this machine ready for the README's commands: the Debian packages and services
# the project needs, installed or started only when missing. Safe to re-run; quick when
# everything is there. Used by `make run` (--for run) and `make test` (--for test).
set -euo pipefail

usage() {
    echo "usage: scripts/prepare-machine.sh --for run|test"
    echo "  run:  bubblewrap and Debian's python3 with NumPy for the bots' boxes"
    echo "  test: also PostgreSQL, Redis, Chromium, a Docker engine with docker-compose and the"
    echo "        images of deploy/compose.yaml (deploy/build-images.sh: bot, app, PostgreSQL, Redis)"
}

purpose=""
case "${1:-}" in
    --for) purpose="${2:-}" ;;
    -h | --help) usage; exit 0 ;;
esac
[ "$purpose" = run ] || [ "$purpose" = test ] || { usage >&2; exit 2; }

cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

apt_updated=0

# need_deb PKG...: install the Debian packages that are missing; `apt-get update` at most once.
need_deb() {
    local missing=() pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
    if [ "$apt_updated" -eq 0 ]; then
        "${sudo[@]}" apt-get update -q </dev/null
        apt_updated=1
    fi
    "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
}

# Services are optional until the platform needs them: start them when installed and down.
start_postgres() {
    command -v pg_isready >/dev/null && command -v pg_ctlcluster >/dev/null || {
        echo "prepare: PostgreSQL not installed; skipping"
        return 0
    }
    pg_isready -q -h 127.0.0.1 && return 0
    local version
    version="$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1)"
    [ -n "$version" ] || { echo "prepare: no PostgreSQL cluster configured; skipping"; return 0; }
    pg_ctlcluster --skip-systemctl-redirect "$version" main start
    pg_isready -h 127.0.0.1 -t 30
}

start_redis() {
    command -v redis-server >/dev/null && command -v redis-cli >/dev/null || {
        echo "prepare: Redis not installed; skipping"
        return 0
    }
    redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && return 0
    mkdir -p /var/lib/redis /var/log/redis
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
        --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
    local _
    for _ in $(seq 50); do
        redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "prepare: Redis did not answer" >&2
    return 1
}

# The sandbox's backends: bwrap needs bubblewrap and the host's python3 (with NumPy, which
# every box offers); docker needs an
# engine and the bot image, made from a debootstrap base (no registry is reachable).
start_docker() {
    docker info >/dev/null 2>&1 && return 0
    local sudo=() log=/var/log/agon-ci-dockerd.log
    [ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
    echo "prepare: starting dockerd (log: $log)"
    "${sudo[@]}" sh -c "nohup dockerd >$log 2>&1 </dev/null &"
    local _
    for _ in $(seq 120); do
        docker info >/dev/null 2>&1 && return 0
        sleep 0.5
    done
    echo "prepare: dockerd did not answer within 60 s; the end of its log:" >&2
    tail -n 40 "$log" >&2 || true
    return 1
}


# A PostgreSQL that refuses the tests' password-less connection (a cluster installed
# here for the first time): trust 127.0.0.1, as on the project's machines.
trust_local_postgres() {
    local hba
    hba="$(ls /etc/postgresql/*/main/pg_hba.conf 2>/dev/null | sort -V | tail -n 1)"
    [ -n "$hba" ] || return 0
    psql -h 127.0.0.1 -U postgres -w -tAc "select 1" >/dev/null 2>&1 && return 0
    sed -i '1i host all all 127.0.0.1/32 trust' "$hba"
    pg_ctlcluster --skip-systemctl-redirect "$(basename "$(dirname "$(dirname "$hba")")")" main reload || true
}

need_deb make bubblewrap python3 python3-numpy
# gcc and Python's headers: `make venv` builds the compiled cores (issue 32); without
# them it still installs, and the engine runs in pure Python.
need_deb gcc libc6-dev python3-dev
if [ "$purpose" = test ]; then
    # chromium: the browser tests (tests/platform/web/browser/) drive Debian's Chromium.
    # docker-compose and python3-pip: the compose test (tests/deploy/test_compose.py) and
    # the app image's wheels, downloaded on the host by deploy/build-images.sh.
    need_deb git docker.io docker-compose debootstrap chromium postgresql redis-server python3-pip
    start_postgres
    trust_local_postgres
    start_redis
    start_docker
    deploy/build-images.sh </dev/null
fi
