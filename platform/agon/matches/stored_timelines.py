"""Timelines made once: a finished match's steps (and, once asked for, what each seat was
shown) written as gzipped JSON beside its replay in the configured storage, so that the
replay viewer's requests read a file instead of playing the match again through the
engine.

A file is named after the match's replay and a digest of the code that draws timelines (the
game's package, `engine.timeline` and the engine's core): a change to how the viewer's
steps are made gives new names, and each match's timeline is made again, once, on its
first request after the change. The files of older code stay behind, unread."""

from __future__ import annotations

import gzip
import hashlib
import inspect
import json
import logging
from functools import cache
from pathlib import Path, PurePosixPath
from typing import Any

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

import engine
from engine.registry import get_game

log = logging.getLogger(__name__)

ENGINE_DIR = Path(engine.__file__).parent
SHARED_FILES = (
    "core.py",
    "timeline.py",
    "spectator.py",
    "replay.py",
    "hexgrid.py",
    "squaregrid.py",
)
"""The engine's modules every game's timeline goes through."""


@cache
def code_digest(game_id: str) -> str:
    """Twelve hex digits of the code that draws this game's timeline."""
    package = Path(inspect.getfile(type(get_game(game_id)))).parent
    files = [ENGINE_DIR / name for name in SHARED_FILES]
    if package != ENGINE_DIR:
        files += sorted(package.rglob("*.py"))
    digest = hashlib.sha256()
    for path in files:
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def timeline_name(replay_name: str, game_id: str, seat: int | None = None) -> str:
    """Where the timeline of the match whose replay is stored as `replay_name` is kept:
    named after the replay (unique in the storage, which renames a clash; a match id is
    not, once a database starts afresh over old files) and the code's digest."""
    part = "" if seat is None else f"-seat{seat}"
    stem = PurePosixPath(replay_name).name.removesuffix(".json")
    return f"timelines/{stem}-{code_digest(game_id)}{part}.json.gz"


def timeline_names(replay_name: str, game_id: str, players: int) -> list[str]:
    """Every file a match's timeline may have now: its steps, and each seat's views."""
    return [
        timeline_name(replay_name, game_id),
        *(timeline_name(replay_name, game_id, seat) for seat in range(players)),
    ]


def packed(steps: list[Any]) -> bytes:
    """Steps as stored: compact JSON, gzipped (a tenth of the text)."""
    text = json.dumps(steps, separators=(",", ":"), ensure_ascii=False).encode()
    return gzip.compress(text, compresslevel=6, mtime=0)


def read_steps(name: str) -> list[Any] | None:
    """The steps stored under `name`, or None when there are none (or they cannot be
    read: the file is dropped, to be made again)."""
    try:
        with default_storage.open(name, "rb") as stored:
            steps: list[Any] = json.loads(gzip.decompress(stored.read()))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, EOFError):
        log.warning("timeline %s is unreadable: it is made again", name, exc_info=True)
        default_storage.delete(name)
        return None
    return steps


def write_steps(name: str, steps: list[Any]) -> None:
    """Store the steps under `name`; a file there already (another request made it at
    the same moment, from the same replay and code) is the same and stays."""
    if default_storage.exists(name):
        return
    saved = default_storage.save(name, ContentFile(packed(steps)))
    if saved != name:  # the storage renamed it: another one won the race
        default_storage.delete(saved)
