#!/usr/bin/env bash
# The application image's entry point: runs its arguments (web, worker or beat; see
# deploy/compose.yaml) with a umask that leaves new files and folders writable by the
# group `agon`, so that the `matches` worker (root, group agon) and the other processes
# (user agon) can write in the same media volume.
set -euo pipefail

if [ "$#" -eq 0 ] || [ "$1" = "--help" ] || [ "$1" = "-h" ]; then
    echo "usage: agon-entrypoint COMMAND [ARG...]   (e.g. gunicorn agon.wsgi ..., celery ..., agon health)"
    [ "$#" -eq 0 ] && exit 2
    exit 0
fi
umask 0002
exec "$@"
