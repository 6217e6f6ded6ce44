"""Deleting a bot, which only its owner's own records refer to.

Other players' histories and replays name a bot that played ranked matches, took part
in a tournament, met another user's bot in a challenge or served as another user's
version-test baseline: such a bot cannot be deleted, and is retired instead
(`agon.bots.retirement`). Of any other bot nothing is kept: its versions and their
archives, its validation matches, the challenges and version tests among its owner's
bots that seated it (with their replays), its ratings (no match moved them) and its
entries in tournaments whose entry is still open.

A bot with a match being played waits for it to end: its worker would find no match to
store the result in. Its queued matches, locked first, are taken from under the workers
cleanly: a worker given one later finds nothing to play (`match_claim`).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models import Q

from agon.bots.models import Bot
from agon.ladders.models import Rating
from agon.matches.models import Match, MatchSeat
from agon.matches.stored_timelines import timeline_names
from agon.tournaments.kept import tournaments_forget
from agon.tournaments.models import Entry
from agon.version_testing.models import VersionTest


@dataclass(frozen=True)
class Refusal:
    reason: str
    retire_instead: bool
    """Retiring is the way: the refusal lasts (not a match that will end)."""


class BotInUse(Exception):
    """The bot cannot be deleted (now, or ever: `refusal.retire_instead`)."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.reason)
        self.refusal = refusal


@dataclass(frozen=True)
class Doomed:
    """What deleting the bot takes with it, as its owner is told before."""

    versions: int
    matches: int
    tests: int


def _match_ids(bot: Bot) -> list[int]:
    return list(
        Match.objects.filter(seats__version__bot=bot).values_list("id", flat=True).distinct()
    )


def deletion_refusal(bot: Bot, match_ids: list[int] | None = None) -> Refusal | None:
    """Why the bot cannot be deleted, or None if it can."""
    ids = _match_ids(bot) if match_ids is None else match_ids
    matches = Match.objects.filter(id__in=ids)
    shared = (
        matches.filter(kind__in=[Match.Kind.RANKED, Match.Kind.TOURNAMENT]).exists()
        or Entry.objects.filter(bot=bot, version__isnull=False).exists()
    )
    if shared:
        return Refusal(
            f"{bot.name} has played ranked matches or taken part in a tournament, which "
            "other players' histories and replays refer to: it cannot be deleted; retire "
            "it instead",
            retire_instead=True,
        )
    if VersionTest.objects.filter(baseline__bot=bot).exclude(created_by=bot.owner_id).exists():
        return Refusal(
            f"{bot.name} is the baseline of another user's version test, which refers to "
            "it: it cannot be deleted; retire it instead",
            retire_instead=True,
        )
    met = (
        MatchSeat.objects.filter(match_id__in=ids, version__isnull=False)
        .exclude(version__bot__owner_id=bot.owner_id)
        .exists()
    )
    if met:
        return Refusal(
            f"{bot.name} has played against other users' bots, whose histories refer to "
            "it: it cannot be deleted; retire it instead",
            retire_instead=True,
        )
    if matches.filter(status=Match.Status.RUNNING).exists():
        return Refusal(
            f"a match of {bot.name} is being played: delete it once the match is over",
            retire_instead=False,
        )
    return None


def deletion_preview(bot: Bot) -> Doomed:
    return Doomed(
        versions=bot.versions.count(),
        matches=len(_match_ids(bot)),
        tests=VersionTest.objects.filter(Q(bot=bot) | Q(baseline__bot=bot)).count(),
    )


@transaction.atomic
def bot_delete(*, bot: Bot) -> None:
    """Delete the bot and everything of its own (BotInUse if anything else refers to
    it); its files go once the deletion is committed."""
    # Its matches are locked before they are judged, so that no worker claims one between
    # the check and the end; and before the bot, in the order a worker finishing one of
    # them takes the two (the match, then the bot as its version passes validation).
    ids = _locked(_match_ids(bot))
    Bot.objects.select_for_update().get(pk=bot.pk)  # no version uploaded meanwhile
    ids += _locked(sorted(set(_match_ids(bot)) - set(ids)))  # one uploaded just before
    refusal = deletion_refusal(bot, ids)
    if refusal is not None:
        raise BotInUse(refusal)
    files = [
        *bot.versions.values_list("archive", flat=True),
        *Match.objects.filter(id__in=ids).exclude(replay="").values_list("replay", flat=True),
    ]
    for replay, game, players in (
        Match.objects.filter(id__in=ids).exclude(replay="").values_list("replay", "game", "players")
    ):
        files += timeline_names(replay, game, players)  # stored or not
    tournaments_forget(bot_id=bot.id)  # its entries go with it
    VersionTest.objects.filter(Q(bot=bot) | Q(baseline__bot=bot)).delete()
    Match.objects.filter(id__in=ids).delete()
    Rating.objects.filter(bot=bot).delete()
    bot.delete()
    transaction.on_commit(lambda: _delete_files(files))


def _locked(match_ids: list[int]) -> list[int]:
    matches = Match.objects.select_for_update().filter(id__in=match_ids).order_by("id")
    return list(matches.values_list("id", flat=True))


def _delete_files(names: list[str]) -> None:
    for name in names:
        if name:
            default_storage.delete(name)
