#!/usr/bin/env bash
# Entry point of the local PostgreSQL image (see the Dockerfile beside it): as the
# official image does, it makes the cluster in PGDATA on the first start (superuser
# POSTGRES_USER with POSTGRES_PASSWORD, database POSTGRES_DB, password logins over the
# network), then runs the command, as the user postgres.
set -euo pipefail

if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
    cat <<'USAGE'
usage: postgres-entrypoint [postgres [OPTION...] | COMMAND...]
  environment: POSTGRES_PASSWORD (required for a new cluster), POSTGRES_USER (postgres),
  POSTGRES_DB (the user's name), PGDATA (/var/lib/postgresql/data)
USAGE
    exit 0
fi

: "${PGDATA:=/var/lib/postgresql/data}"
: "${POSTGRES_USER:=postgres}"
: "${POSTGRES_DB:=$POSTGRES_USER}"
export PGDATA

if [ "$(id -u)" -eq 0 ]; then
    # A bind-mounted folder belongs to whoever made it: hand it over, then drop root.
    mkdir -p "$PGDATA" /var/run/postgresql
    chown postgres:postgres "$PGDATA" /var/run/postgresql
    chmod 0700 "$PGDATA"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

if [ "${1:-}" = "postgres" ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
    if [ -z "${POSTGRES_PASSWORD:-}" ]; then
        echo "postgres-entrypoint: the database is not initialised and POSTGRES_PASSWORD is not set" >&2
        exit 1
    fi
    echo "postgres-entrypoint: initialising $PGDATA (user $POSTGRES_USER, database $POSTGRES_DB)"
    initdb --username="$POSTGRES_USER" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") \
        --encoding=UTF8 --locale=C.UTF-8 --auth-local=trust --auth-host=scram-sha-256 \
        -D "$PGDATA" >/dev/null
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
    if [ "$POSTGRES_DB" != "postgres" ]; then
        pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -k /var/run/postgresql" -w start >/dev/null
        # From standard input: psql interpolates :"db" (quoted as an identifier) there.
        echo 'CREATE DATABASE :"db";' | psql -v ON_ERROR_STOP=1 -h /var/run/postgresql \
            -U "$POSTGRES_USER" -d postgres -v db="$POSTGRES_DB" >/dev/null
        pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
    fi
    echo "postgres-entrypoint: initialised"
fi

exec "$@"
