"""Anchors: the reference bots (`builtin:mcts-1`, `mcts-2`, `mcts-3`, or whichever
AGON_LADDER_ANCHORS names) entered on every active open ladder (a competition's are its
entrants' alone), so that a ladder always has a yardstick whose strength does not change
from one season to the next.

Each anchor is a bot of the reserved account `builtin` (nobody can sign up as it or log in
as it), one per game and builtin (`builtin/akropolis-mcts-2`: a bot plays one game and its
name is its owner's once), rated like any bot. Its version holds no archive: it
names the builtin (`BotVersion.builtin`), which the worker plays in its own process, as it
plays the builtin opponents of validation matches, bounded by playouts, not wall time, so
that its moves, and so its replays, are the same on any machine and at any load. The
version's digest is that of the search bots' source: when the code that decides their moves
changes, the anchor gets a new version (provisional again), as an upload would.

Anchors share an owner, so matchmaking never seats two of them together: they meet the
uploaded bots only, which is what a yardstick is for, and what keeps their cost (a few
CPU seconds a match for the strongest) to the matches that measure someone.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction

import engine.search
from agon.bots.models import Bot, BotVersion
from agon.ladders.models import Ladder
from agon.ladders.services import ratings_enter
from engine.bots import BUILTIN_BOTS
from engine.registry import game_ids

ANCHORS_OWNER = "builtin"
"""The account the anchors belong to: a reserved username (agon.accounts.names)."""


def search_code() -> list[Path]:
    """The files of the code that decides the search bots' moves: the search
    (engine/search) and each game's greedy bot, which ranks its candidates and plays its
    playouts."""
    search = Path(engine.search.__file__).resolve().parent
    greedy = [search.parent / game / "greedy.py" for game in sorted(game_ids())]
    return [*sorted(search.glob("*.py")), *greedy]


@cache
def search_digest() -> str:
    """The sha256 of `search_code`: a change in it makes the anchors new versions."""
    root = Path(engine.search.__file__).resolve().parents[2]
    digest = hashlib.sha256()
    for path in search_code():
        name = path.relative_to(root).as_posix()
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def anchor_digest(name: str) -> str:
    """An anchor version's digest: its builtin's name and the search code's digest."""
    return hashlib.sha256(f"builtin:{name}\0{search_digest()}".encode()).hexdigest()


def anchors_owner() -> User:
    owner, created = User.objects.get_or_create(username=ANCHORS_OWNER)
    if created:
        owner.set_unusable_password()
        owner.save(update_fields=["password"])
    return owner


@transaction.atomic
def anchors_ensure() -> list[BotVersion]:
    """Every anchor of AGON_LADDER_ANCHORS on every active ladder of every game, with a
    version of today's search code; the versions playing for them. Idempotent: a second
    call with nothing changed writes nothing."""
    names = settings.AGON_LADDER_ANCHORS
    if not names:
        return []
    unknown = sorted(set(names) - set(BUILTIN_BOTS))
    if unknown:
        raise ImproperlyConfigured(
            f"AGON_LADDER_ANCHORS names {', '.join(unknown)}: not builtin bots "
            f"(they are {', '.join(BUILTIN_BOTS)})"
        )
    owner = anchors_owner()
    games = sorted(
        set(Ladder.objects.filter(active=True, open=True).values_list("game", flat=True))
    )
    playing = []
    for game in games:
        for name in names:
            bot, _ = Bot.objects.get_or_create(
                owner=owner, name=f"{game}-{name}", game=game, defaults={"open_to_events": True}
            )
            playing.append(_anchor_version(bot, name))
    return playing


def _anchor_version(bot: Bot, name: str) -> BotVersion:
    """The bot's active version of today's search code, made (and rated on every ladder of
    its game) when it has none; one it had (older code) is retired."""
    digest = anchor_digest(name)
    active = bot.versions.filter(status=BotVersion.Status.ACTIVE).first()
    if active is not None and active.sha256 == digest and active.builtin == name:
        _enter_missing(active)
        return active
    if active is not None:
        active.status = BotVersion.Status.RETIRED
        active.save(update_fields=["status"])
    number = (bot.versions.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    version = BotVersion.objects.create(
        bot=bot,
        number=number,
        builtin=name,
        filename=f"builtin:{name}",
        sha256=digest,
        size=0,
        status=BotVersion.Status.ACTIVE,
    )
    ratings_enter(version=version)
    return version


def _enter_missing(version: BotVersion) -> None:
    """An anchor already playing is entered on a ladder of its game made since."""
    rated = set(version.bot.ratings.values_list("ladder_id", flat=True))
    missing = Ladder.objects.filter(game=version.bot.game, active=True, open=True).exclude(
        id__in=rated
    )
    if missing.exists():
        ratings_enter(version=version)
