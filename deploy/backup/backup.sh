#!/usr/bin/env bash
# Back up Agon: the PostgreSQL database and the stored files (replays, bot archives).
# See deploy/backup/README.md.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: backup.sh [--output DIR] [--database-url URL] [--media-dir DIR | --s3]

Writes one backup folder, DIR/agon-backup-<UTC time>/, holding:
  database.dump   pg_dump of the database, custom format (restore with pg_restore)
  media.tar.gz    the stored files: replays/, bots/ (the bot archives)
  SHA256SUMS      checksums of both, checked by restore.sh
  INFO            when, from which database (without its password), from where the files
and prints its path as the last line.

The database is dumped first, then the files: every match and version in the dump has
its file in the tarball (files are written before their row commits and never removed).

Options (each falls back on the platform's own environment variable):
  --output DIR        where to put the backup folder (AGON_BACKUP_DIR, else .)
  --database-url URL  the database (AGON_DATABASE_URL), postgres://user:pass@host:port/name
  --media-dir DIR     the local folder of stored files (AGON_MEDIA_DIR, else $AGON_VAR_DIR/media)
  --s3                the files are in the bucket that AGON_S3_BUCKET names (the default when
                      it is set): its objects (under AGON_S3_PREFIX) are downloaded with
                      AGON_S3_ENDPOINT_URL, AGON_S3_ACCESS_KEY_ID, AGON_S3_SECRET_ACCESS_KEY,
                      AGON_S3_REGION by deploy/backup/s3_objects.py (needs Python with boto3:
                      AGON_BACKUP_PYTHON, else python3)
  -h, --help          this help

pg_dump must be at least as new as the server (run it in the database's container if not).
EOF
}

fail() {
    echo "backup.sh: $*" >&2
    exit 1
}

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
output="${AGON_BACKUP_DIR:-.}"
database_url="${AGON_DATABASE_URL:-}"
media_dir="${AGON_MEDIA_DIR:-}"
use_s3=""
if [[ -n "${AGON_S3_BUCKET:-}" ]]; then
    use_s3=1
fi

while [[ $# -gt 0 ]]; do
    case "$1" in
        -h | --help) usage; exit 0 ;;
        --output) [[ $# -ge 2 ]] || fail "--output needs a folder"; output="$2"; shift 2 ;;
        --database-url) [[ $# -ge 2 ]] || fail "--database-url needs a URL"; database_url="$2"; shift 2 ;;
        --media-dir) [[ $# -ge 2 ]] || fail "--media-dir needs a folder"; media_dir="$2"; use_s3=""; shift 2 ;;
        --s3) use_s3=1; shift ;;
        *) usage >&2; fail "unknown argument: $1" ;;
    esac
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
    # A platform that never stored a file has no folder yet: an empty tarball then.
    mkdir -p "$media_dir"
fi
command -v pg_dump >/dev/null || fail "pg_dump is not installed (Debian: postgresql-client)"

stamp="$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$output"
backup="$(cd "$output" && pwd)/agon-backup-$stamp"
partial="$backup.partial"
[[ ! -e "$backup" && ! -e "$partial" ]] || fail "$backup exists already"
mkdir "$partial"
trap 'rm -rf "$partial"' EXIT

echo "backup.sh: dumping the database" >&2
pg_dump --dbname="$database_url" --format=custom --compress=6 --file="$partial/database.dump"

if [[ -n "$use_s3" ]]; then
    echo "backup.sh: downloading the bucket's objects" >&2
    objects="$partial/objects"
    "${AGON_BACKUP_PYTHON:-python3}" "$here/s3_objects.py" download "$objects"
    tar -C "$objects" -czf "$partial/media.tar.gz" .
    rm -rf "$objects"
    files_from="s3 bucket ${AGON_S3_BUCKET}, prefix '${AGON_S3_PREFIX:-}'"
else
    echo "backup.sh: packing $media_dir" >&2
    # live/ holds the moves of matches being played: transient, left out.
    tar -C "$media_dir" --exclude=./live -czf "$partial/media.tar.gz" .
    files_from="folder $media_dir"
fi

# The URL without its password, for the record.
shown_url="$(sed -E 's#(://[^:/@]*):[^@]*@#\1:***@#' <<<"$database_url")"
{
    echo "created: $stamp"
    echo "database: $shown_url"
    echo "files: $files_from"
    echo "pg_dump: $(pg_dump --version)"
} >"$partial/INFO"
(cd "$partial" && sha256sum database.dump media.tar.gz >SHA256SUMS)

mv "$partial" "$backup"
trap - EXIT
echo "backup.sh: done" >&2
echo "$backup"
