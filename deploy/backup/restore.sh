#!/usr/bin/env bash
# Restore an Agon backup made by backup.sh: the database and the stored files.
# See deploy/backup/README.md.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: restore.sh [--database-url URL] [--media-dir DIR | --s3] [--clean] BACKUP_DIR

Restores a folder written by backup.sh: checks its checksums, loads database.dump into
the database (pg_restore, one transaction: all or nothing), then unpacks media.tar.gz
into the files folder, or uploads its files to the bucket.

Stop the platform first (web, workers, beat): nothing may write meanwhile. The database
must exist (createdb) and be empty, unless --clean is given.

Options (each falls back on the platform's own environment variable):
  --database-url URL  the database to restore into (AGON_DATABASE_URL)
  --media-dir DIR     the local folder of stored files (AGON_MEDIA_DIR, else $AGON_VAR_DIR/media);
                      it must be empty or missing, unless --clean is given
  --s3                upload the files to the bucket that AGON_S3_BUCKET names (the default
                      when it is set), under AGON_S3_PREFIX, with deploy/backup/s3_objects.py
  --clean             drop the database's objects before restoring them (pg_restore --clean),
                      and restore files over those already there
  -h, --help          this help
EOF
}

fail() {
    echo "restore.sh: $*" >&2
    exit 1
}

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
database_url="${AGON_DATABASE_URL:-}"
media_dir="${AGON_MEDIA_DIR:-}"
use_s3=""
if [[ -n "${AGON_S3_BUCKET:-}" ]]; then
    use_s3=1
fi
clean=""
backup=""

while [[ $# -gt 0 ]]; do
    case "$1" in
        -h | --help) usage; exit 0 ;;
        --database-url) [[ $# -ge 2 ]] || fail "--database-url needs a URL"; database_url="$2"; shift 2 ;;
        --media-dir) [[ $# -ge 2 ]] || fail "--media-dir needs a folder"; media_dir="$2"; use_s3=""; shift 2 ;;
        --s3) use_s3=1; shift ;;
        --clean) clean=1; shift ;;
        -*) usage >&2; fail "unknown option: $1" ;;
        *) [[ -z "$backup" ]] || fail "one backup folder at a time"; backup="$1"; shift ;;
    esac
done

[[ -n "$backup" ]] || { usage >&2; fail "which backup? give its folder"; }
[[ -d "$backup" ]] || fail "$backup is not a folder"
for part in database.dump media.tar.gz SHA256SUMS; do
    [[ -f "$backup/$part" ]] || fail "$backup has no $part: not a backup of backup.sh"
done
[[ -n "$database_url" ]] || fail "no database: give --database-url or set AGON_DATABASE_URL"
case "$database_url" in
    postgres://* | postgresql://*) ;;
    *) fail "the database URL must be postgres://..., not ${database_url%%://*}://..." ;;
esac
if [[ -z "$use_s3" ]]; then
    if [[ -z "$media_dir" ]]; then
        [[ -n "${AGON_VAR_DIR:-}" ]] || fail "no files folder: give --media-dir, or set AGON_MEDIA_DIR or AGON_VAR_DIR"
        media_dir="$AGON_VAR_DIR/media"
    fi
    if [[ -z "$clean" && -d "$media_dir" ]] && [[ -n "$(ls -A "$media_dir")" ]]; then
        fail "$media_dir is not empty (give --clean to restore over it)"
    fi
fi
command -v pg_restore >/dev/null || fail "pg_restore is not installed (Debian: postgresql-client)"
command -v psql >/dev/null || fail "psql is not installed (Debian: postgresql-client)"

echo "restore.sh: checking the checksums" >&2
(cd "$backup" && sha256sum --check --quiet --strict SHA256SUMS) || fail "$backup is damaged"

if [[ -z "$clean" ]]; then
    tables="$(psql --dbname="$database_url" --no-psqlrc --tuples-only --no-align --command \
        "select count(*) from pg_tables where schemaname = 'public'")"
    [[ "$tables" == "0" ]] || fail "the database has $tables tables already (give --clean to replace them)"
fi

echo "restore.sh: restoring the database" >&2
restore_options=(--no-owner --no-privileges --exit-on-error --single-transaction)
if [[ -n "$clean" ]]; then
    restore_options+=(--clean --if-exists)
fi
pg_restore "${restore_options[@]}" --dbname="$database_url" "$backup/database.dump"

if [[ -n "$use_s3" ]]; then
    echo "restore.sh: uploading the files to the bucket" >&2
    unpacked="$(mktemp -d)"
    trap 'rm -rf "$unpacked"' EXIT
    tar -C "$unpacked" -xzf "$backup/media.tar.gz"
    "${AGON_BACKUP_PYTHON:-python3}" "$here/s3_objects.py" upload "$unpacked"
else
    echo "restore.sh: unpacking the files into $media_dir" >&2
    mkdir -p "$media_dir"
    tar -C "$media_dir" -xzf "$backup/media.tar.gz" --no-same-owner
fi
echo "restore.sh: done" >&2
