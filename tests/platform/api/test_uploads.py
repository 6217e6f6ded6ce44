"""Uploads that must be refused, each with a clear error, leaving nothing behind: no
bot, no version, no match and no file under MEDIA_ROOT."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from agon.bots.models import Bot, BotVersion
from agon.matches.models import Match
from sandbox.packages import MAX_DEPTH, MAX_PACKED_BYTES, MAX_UNPACKED_BYTES
from tests.platform.conftest import MakeBot
from tests.platform.support import BOT_SOURCE, py_upload, tar_gz_bytes, zip_bytes

pytestmark = pytest.mark.django_db

MAIN = {"main.py": BOT_SOURCE}

REFUSED_PACKAGES = {
    "a zip with '..' in a path": (
        "bot.zip",
        zip_bytes({**MAIN, "../x": b"escape"}),
        "'../x': '..' is not allowed in paths",
    ),
    "a zip with an absolute path": (
        "bot.zip",
        zip_bytes({**MAIN, "/etc/x": b"escape"}),
        "'/etc/x': absolute paths are not allowed",
    ),
    "a tar.gz with '..' in a path": (
        "bot.tar.gz",
        tar_gz_bytes({**MAIN, "../x": b"escape"}),
        "'../x': '..' is not allowed in paths",
    ),
    "a tar.gz with an absolute path": (
        "bot.tar.gz",
        tar_gz_bytes({**MAIN, "/etc/x": b"escape"}),
        "'/etc/x': absolute paths are not allowed",
    ),
    "a tar.gz with a symlink": (
        "bot.tar.gz",
        tar_gz_bytes(MAIN, symlinks={"passwd": "/etc/passwd"}),
        "'passwd': links, devices and other special files are not allowed",
    ),
    "a zip bomb": (
        "bot.zip",
        zip_bytes({**MAIN, "bomb.bin": bytes(MAX_UNPACKED_BYTES + 1)}),
        "unpacks to more than 50 MiB (at 'bomb.bin')",
    ),
    "a zip without main.py": (
        "bot.zip",
        zip_bytes({"bot.py": BOT_SOURCE}),
        "there is no main.py at the top of the package",
    ),
    "a zip with main.py in a folder": (
        "bot.zip",
        zip_bytes({"bot/main.py": BOT_SOURCE}),
        "there is no main.py at the top of the package",
    ),
    "a file that is not a zip": (
        "bot.zip",
        BOT_SOURCE,
        "not a valid zip archive: File is not a zip file",
    ),
    "a zip holding a path 2,000 folders deep": (
        "bot.zip",
        zip_bytes({**MAIN, "/".join(["d"] * 2000) + "/f.py": b""}),
        f"'{'d/' * 30}...d{'/d' * 12}/f.py': nested more than {MAX_DEPTH} levels deep",
    ),
    "a file of the wrong kind": (
        "bot.exe",
        BOT_SOURCE,
        "'bot.exe': a bot is a .py file, or a .zip or .tar.gz archive with main.py at the top",
    ),
    "a bot that imports a module the box lacks": (
        "bot.zip",
        zip_bytes({"main.py": b"import brain\n" + BOT_SOURCE, "brain.py": b"import torch\n"}),
        "the bot cannot start: brain.py, line 1: imports torch, which the box does not have. "
        "A box has Python 3.11 with its standard library, NumPy, agon_bot and engine.",
    ),
    "a bot with a syntax error": (
        "main.py",
        b"def broken(:\n" + BOT_SOURCE,
        "the bot cannot start: main.py, line 1: syntax error: invalid syntax. "
        "A box has Python 3.11 with its standard library, NumPy, agon_bot and engine.",
    ),
    "a file over 5 MiB": (
        "main.py",
        b"#" * (MAX_PACKED_BYTES + 1),
        "the package is larger than 5 MiB",
    ),
}


def files_under(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*") if path.is_file()]


def assert_nothing_stored(media_root: Path) -> None:
    assert not Bot.objects.exists()
    assert not BotVersion.objects.exists()
    assert not Match.objects.exists()
    assert files_under(media_root) == []


@pytest.mark.parametrize(
    ("filename", "data", "message"), REFUSED_PACKAGES.values(), ids=REFUSED_PACKAGES.keys()
)
def test_it_refuses_a_bad_package_and_stores_nothing(
    alice_client: APIClient, media_root: Path, filename: str, data: bytes, message: str
) -> None:
    response = alice_client.post(
        "/api/bots/",
        {"name": "bad", "game": "akropolis", "file": SimpleUploadedFile(filename, data)},
    )

    assert response.status_code == 400
    assert response.json() == {"error": message, "detail": [message]}
    assert_nothing_stored(media_root)


@pytest.mark.parametrize(
    ("filename", "data", "message"), REFUSED_PACKAGES.values(), ids=REFUSED_PACKAGES.keys()
)
def test_it_refuses_a_bad_package_as_a_new_version_and_stores_nothing(
    alice_client: APIClient,
    make_bot: MakeBot,
    alice: User,
    media_root: Path,
    filename: str,
    data: bytes,
    message: str,
) -> None:
    bot = make_bot(alice, "good")
    stored = sorted(files_under(media_root))

    response = alice_client.post(
        f"/api/bots/{bot.id}/versions/", {"file": SimpleUploadedFile(filename, data)}
    )

    assert response.status_code == 400
    assert response.json()["error"] == message
    assert bot.versions.count() == 1
    assert sorted(files_under(media_root)) == stored


def test_it_refuses_a_request_far_over_the_limit_before_reading_it(
    alice_client: APIClient, media_root: Path
) -> None:
    response = alice_client.post(
        "/api/bots/",
        {
            "name": "huge",
            "game": "akropolis",
            "file": SimpleUploadedFile("main.py", b"#" * (2 * MAX_PACKED_BYTES)),
        },
    )

    assert response.status_code == 400
    assert response.json()["error"] == "the package is larger than 5 MiB"
    assert_nothing_stored(media_root)


def test_it_refuses_an_empty_file(alice_client: APIClient, media_root: Path) -> None:
    response = alice_client.post(
        "/api/bots/",
        {"name": "empty", "game": "akropolis", "file": SimpleUploadedFile("main.py", b"")},
    )

    assert response.status_code == 400
    assert response.json()["error"] == "file: The submitted file is empty."
    assert_nothing_stored(media_root)


def test_it_refuses_an_upload_without_a_file(alice_client: APIClient, media_root: Path) -> None:
    response = alice_client.post("/api/bots/", {"name": "nothing", "game": "akropolis"})

    assert response.status_code == 400
    assert response.json()["error"] == "file: No file was submitted."
    assert_nothing_stored(media_root)


def test_it_refuses_a_bot_for_an_unknown_game(alice_client: APIClient, media_root: Path) -> None:
    response = alice_client.post(
        "/api/bots/", {"name": "chessbot", "game": "chess", "file": py_upload()}
    )

    assert response.status_code == 400
    assert response.json()["error"].startswith("unknown game 'chess'; known games: ")
    assert "akropolis" in response.json()["error"]
    assert_nothing_stored(media_root)


def test_it_refuses_a_second_bot_with_the_same_name(
    alice_client: APIClient, make_bot: MakeBot, alice: User, media_root: Path
) -> None:
    make_bot(alice, "twin")
    stored = sorted(files_under(media_root))

    response = alice_client.post(
        "/api/bots/", {"name": "twin", "game": "akropolis", "file": py_upload()}
    )

    assert response.status_code == 400
    assert response.json()["error"] == "you already have a bot called 'twin'"
    assert Bot.objects.count() == 1
    assert BotVersion.objects.count() == 1
    assert sorted(files_under(media_root)) == stored


def test_two_users_may_give_their_bots_the_same_name(
    bob_client: APIClient, make_bot: MakeBot, alice: User
) -> None:
    make_bot(alice, "twin")

    response = bob_client.post(
        "/api/bots/", {"name": "twin", "game": "akropolis", "file": py_upload()}
    )

    assert response.status_code == 201


def test_it_refuses_a_blank_or_overlong_name(alice_client: APIClient, media_root: Path) -> None:
    blank = alice_client.post(
        "/api/bots/", {"name": "  ", "game": "akropolis", "file": py_upload()}
    )
    overlong = alice_client.post(
        "/api/bots/", {"name": "x" * 65, "game": "akropolis", "file": py_upload()}
    )

    assert blank.status_code == overlong.status_code == 400
    assert blank.json()["error"] == "name: This field may not be blank."
    assert overlong.json()["error"] == "name: Ensure this field has no more than 64 characters."
    assert_nothing_stored(media_root)


def test_it_accepts_a_zip_and_a_tar_gz_with_main_py_at_the_top(
    alice_client: APIClient, media_root: Path
) -> None:
    for name, data in (
        ("bot.zip", zip_bytes({**MAIN, "lib/helper.py": b"X = 1\n"})),
        ("bot.tar.gz", tar_gz_bytes({**MAIN, "lib/helper.py": b"X = 1\n"})),
    ):
        response = alice_client.post(
            "/api/bots/",
            {"name": name, "game": "akropolis", "file": SimpleUploadedFile(name, data)},
        )

        assert response.status_code == 201, response.json()
    assert len(files_under(media_root)) == 2
