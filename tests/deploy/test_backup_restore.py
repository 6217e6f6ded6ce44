"""deploy/backup: a platform with users, bots and played matches is backed up, lost, and
restored into a new database and files folder, where everything is as it was and the
replays still verify."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tarfile
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import psycopg
import pytest
from django.conf import settings
from psycopg import sql

from tests.deploy.support import REPO_DIR, clean_environment, run_python
from tests.platform.s3 import Bucket, moto_bucket

BACKUP = REPO_DIR / "deploy" / "backup" / "backup.sh"
RESTORE = REPO_DIR / "deploy" / "backup" / "restore.sh"

MakeDatabase = Callable[[str], str]


def server_url(database: str) -> str:
    """A URL of a database on the test suite's PostgreSQL server."""
    db = settings.DATABASES["default"]
    user = quote(db["USER"] or "", safe="")
    password = f":{quote(str(db['PASSWORD']), safe='')}" if db["PASSWORD"] else ""
    credentials = f"{user}{password}@" if user else ""
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgres://{credentials}{db['HOST'] or '127.0.0.1'}{port}/{database}"


def admin(statement: sql.Composed) -> None:
    with psycopg.connect(server_url("postgres"), autocommit=True) as connection:
        connection.execute(statement)


def drop(name: str) -> None:
    admin(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture
def make_database() -> Iterator[MakeDatabase]:
    """Fresh, empty databases of this test's own (not the suite's test database), all
    dropped at the end; gives their URLs."""
    made: list[str] = []

    def make(role: str) -> str:
        name = f"agon_backup_{role}_{uuid.uuid4().hex[:8]}"
        admin(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        made.append(name)
        return server_url(name)

    try:
        yield make
    finally:
        for name in made:
            drop(name)


def platform(action: str, database_url: str, var: Path, files: Mapping[str, str]) -> dict[str, Any]:
    """`tests.deploy.platform_data ACTION` against this database, folder and files."""
    env = {
        "DJANGO_SETTINGS_MODULE": "agon.settings.local",
        "AGON_DATABASE_URL": database_url,
        "AGON_VAR_DIR": str(var),
        "AGON_SANDBOX": "bwrap",
        **files,
    }
    ran = run_python(["-m", "tests.deploy.platform_data", action], env, timeout=300)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    described: dict[str, Any] = json.loads(ran.stdout.splitlines()[-1])
    return described


def script(path: Path, args: list[str], env: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - the repository's own script
        [str(path), *args],
        env=clean_environment(env),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@dataclass
class Files:
    """Where the platform keeps its files, before the loss and after the restore."""

    source: dict[str, str]
    target: dict[str, str]
    lose: Callable[[], None]
    bucket: Bucket | None = None


@pytest.fixture(params=["folder", "bucket"])
def files(request: pytest.FixtureRequest) -> Iterator[Files]:
    """A local folder (the default: AGON_VAR_DIR/media), or an S3 bucket (moto's server),
    restored under another prefix."""
    if request.param == "folder":
        yield Files(source={}, target={}, lose=lambda: None)
        return
    with moto_bucket() as bucket:
        yield Files(
            source=bucket.environment("platform"),
            target={**bucket.environment("restored"), "AGON_BACKUP_PYTHON": sys.executable},
            lose=bucket.empty,
            bucket=bucket,
        )


def test_a_backup_restores_every_row_and_file_into_a_new_database_and_place(
    make_database: MakeDatabase, files: Files, tmp_path: Path
) -> None:
    source_url = make_database("source")
    source_var = tmp_path / "source"
    before = platform("fill", source_url, source_var, files.source)
    assert len(before["users"]) == 2 and len(before["versions"]) == 2
    assert [match[1] for match in before["matches"]] == ["validation", "validation", "ranked"]
    assert all(match[-1] for match in before["matches"]), "every replay verifies"
    assert before["rating_changes"] == 2
    if files.bucket is not None:
        kept = sorted(name.split("/")[1] for name in files.bucket.objects())
        assert kept == ["bots"] * 2 + ["replays"] * 3 + ["timelines"] * 3, (
            "2 archives, 3 replays and their 3 timelines in the bucket"
        )

    made = script(
        BACKUP,
        ["--output", str(tmp_path / "backups")],
        {
            "AGON_DATABASE_URL": source_url,
            "AGON_VAR_DIR": str(source_var),
            "AGON_BACKUP_PYTHON": sys.executable,
            **files.source,
        },
    )
    assert made.returncode == 0, made.stderr
    backup = Path(made.stdout.splitlines()[-1])
    assert backup.parent == tmp_path / "backups"
    assert sorted(path.name for path in backup.iterdir()) == [
        "INFO",
        "SHA256SUMS",
        "database.dump",
        "media.tar.gz",
    ]
    assert "database: postgres://" in (backup / "INFO").read_text()
    with tarfile.open(backup / "media.tar.gz") as packed:
        names = sorted(name.removeprefix("./") for name in packed.getnames())
    stored = sorted(
        [version[4] for version in before["versions"]] + [match[6] for match in before["matches"]]
    )
    assert [name for name in names if name.startswith(("bots/", "replays/"))] == stored
    timelines = [name for name in names if name.startswith("timelines/") and name.endswith(".gz")]
    assert len(timelines) == len(before["matches"]), "each finished match's stored timeline"

    # The platform is lost: its database and its files.
    drop(source_url.rsplit("/", 1)[1])
    shutil.rmtree(source_var)
    files.lose()

    target_url = make_database("target")
    target_var = tmp_path / "target"
    restored = script(
        RESTORE,
        [str(backup)],
        {"AGON_DATABASE_URL": target_url, "AGON_VAR_DIR": str(target_var), **files.target},
    )
    assert restored.returncode == 0, restored.stderr

    after = platform("describe", target_url, target_var, files.target)
    assert after == before
    if files.bucket is not None:
        assert sorted(files.bucket.objects()) == [
            f"restored/{name}" for name in sorted(stored + timelines)
        ]
        return

    # The command operators use to check a replay file agrees.
    replay_name = before["matches"][-1][6]
    verified = run_python(
        ["-m", "agon.cli", "replay", "verify", str(target_var / "media" / replay_name)], {}
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert ": OK: akropolis, 2 players" in verified.stdout


def test_restore_refuses_a_used_database_or_folder_unless_told_and_any_damaged_backup(
    make_database: MakeDatabase, tmp_path: Path
) -> None:
    source_url = make_database("source")
    media = tmp_path / "media"
    (media / "replays").mkdir(parents=True)
    (media / "replays" / "match-1.json").write_text("{}")
    with psycopg.connect(source_url, autocommit=True) as connection:
        connection.execute("CREATE TABLE kept (id integer)")
    made = script(
        BACKUP,
        ["--output", str(tmp_path), "--database-url", source_url, "--media-dir", str(media)],
        {},
    )
    assert made.returncode == 0, made.stderr
    backup = Path(made.stdout.splitlines()[-1])

    into_full = script(
        RESTORE,
        ["--database-url", source_url, "--media-dir", str(tmp_path / "new-media"), str(backup)],
        {},
    )
    assert into_full.returncode != 0
    assert "the database has 1 tables already" in into_full.stderr

    target_url = make_database("target")
    into_used_folder = script(
        RESTORE, ["--database-url", target_url, "--media-dir", str(media), str(backup)], {}
    )
    assert into_used_folder.returncode != 0
    assert "is not empty" in into_used_folder.stderr

    over_both = script(
        RESTORE,
        ["--clean", "--database-url", source_url, "--media-dir", str(media), str(backup)],
        {},
    )
    assert over_both.returncode == 0, over_both.stderr
    assert (media / "replays" / "match-1.json").read_text() == "{}"

    with (backup / "media.tar.gz").open("ab") as damaged:
        damaged.write(b"\0")
    from_damaged = script(
        RESTORE,
        ["--database-url", target_url, "--media-dir", str(tmp_path / "new-media"), str(backup)],
        {},
    )
    assert from_damaged.returncode != 0
    assert "is damaged" in from_damaged.stderr
    with psycopg.connect(target_url) as connection:
        tables = connection.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
        assert tables.fetchone() == (0,), "nothing was restored from a damaged backup"


@pytest.mark.parametrize("script_path", [BACKUP, RESTORE])
def test_the_scripts_explain_themselves(script_path: Path) -> None:
    helped = script(script_path, ["--help"], {})

    assert helped.returncode == 0
    assert helped.stdout.startswith(f"Usage: {script_path.name}")
    lost = script(script_path, ["--database-url"], {})
    assert lost.returncode != 0
    assert "needs a URL" in lost.stderr
