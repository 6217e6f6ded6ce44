"""The example bots of `examples/bots/`, entered for a system user so that a fresh platform
has enough bots on every ladder to play (`agon up` calls this at each start).

A bot plays one game, so each game with an active ladder gets its own copies, named
`<game>-<example>[-<n>]`. They go through the same path as any upload: a version is
checked, then validated by a match before it is rated. A file is not submitted again
while a version of the bot with the same content is active, validating or rejected.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction

from agon.bots.models import Bot, BotVersion
from agon.bots.services import bot_submit, version_submit
from agon.ladders.models import Ladder
from engine.registry import game_ids

EXAMPLES_OWNER = "agon-examples"


@dataclass(frozen=True)
class ExampleBot:
    name: str
    game: str
    path: Path


@dataclass(frozen=True)
class ExampleEntry:
    bot: Bot
    version: BotVersion
    submitted: bool
    """True if this call submitted the version; False if it was there already."""


def example_bots(folder: Path, game: str, seats: int) -> list[ExampleBot]:
    """The bots of one game: each example file in as many copies as it takes to fill
    `seats` seats plus one, so that the largest table still has a choice of bots
    (`akropolis-random`, `akropolis-random-2`, ...)."""
    files = sorted(folder.glob("*.py"))
    if not files:
        return []
    copies = max(1, math.ceil((seats + 1) / len(files)))
    bots = []
    for path in files:
        base = f"{game}-{path.stem.removesuffix('_bot').replace('_', '-')}"
        for copy in range(1, copies + 1):
            bots.append(ExampleBot(base if copy == 1 else f"{base}-{copy}", game, path))
    return bots


@transaction.atomic
def examples_owner_ensure() -> User:
    """The system user owning the example bots; nobody can log in as it."""
    owner, created = User.objects.get_or_create(
        username=EXAMPLES_OWNER, defaults={"first_name": "Agon examples"}
    )
    if created:
        owner.set_unusable_password()
        owner.save(update_fields=["password"])
    return owner


def examples_register(*, folder: Path, games: Collection[str] | None = None) -> list[ExampleEntry]:
    """Enter (or update) the example bots of `folder` for every game (or these games)
    with an active ladder, enough of them for the ladder with the most players."""
    owner = examples_owner_ensure()
    seats: dict[str, int] = {}
    wanted = [game for game in game_ids() if games is None or game in games]
    ladders = Ladder.objects.filter(active=True, open=True, game__in=wanted)
    for game, players in ladders.values_list("game", "players"):
        seats[game] = max(seats.get(game, 0), players)
    entries = []
    for example in (b for game in sorted(seats) for b in example_bots(folder, game, seats[game])):
        data = example.path.read_bytes()
        sha256 = hashlib.sha256(data).hexdigest()
        upload = SimpleUploadedFile(example.path.name, data, content_type="text/x-python")
        bot = Bot.objects.filter(owner=owner, name=example.name).first()
        if bot is None:
            bot = bot_submit(owner=owner, name=example.name, game=example.game, upload=upload)
            entries.append(ExampleEntry(bot, bot.versions.get(), submitted=True))
            continue
        current = (
            bot.versions.filter(
                sha256=sha256,
                status__in=[BotVersion.Status.ACTIVE, BotVersion.Status.VALIDATING],
            )
            .order_by("-number")
            .first()
        )
        if current is not None:
            entries.append(ExampleEntry(bot, current, submitted=False))
        else:
            entries.append(ExampleEntry(bot, version_submit(bot=bot, upload=upload), True))
    return entries
