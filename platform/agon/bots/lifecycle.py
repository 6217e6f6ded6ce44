"""A bot's life after its upload, in its owner's hands: renamed, retired (it leaves every
ladder and plays no new match; its history and ratings stay, hidden from the
leaderboards, as lichess does with closed accounts), reactivated, or deleted while
nobody else's history holds it.

A bot that played any match besides its own validation cannot be deleted: other bots'
histories, ratings, replays and tournaments name it. Its owner retires it instead."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.db import IntegrityError, transaction
from django.utils import timezone

from agon.accounts.names import bot_name_check
from agon.bots.models import Bot, BotVersion
from agon.ladders.models import Ladder, Rating
from agon.matches.models import Match, MatchSeat
from agon.matches.stored_timelines import timeline_names
from agon.tournaments.models import Entry
from agon.version_tests.models import VersionTest


class BotInUse(Exception):
    """The bot cannot be deleted; the message says why and what to do instead."""


@transaction.atomic
def bot_rename(*, bot: Bot, name: str) -> Bot:
    """The bot under a new name: the rules of a new bot's name, against the owner's
    other bots (a name too like another of theirs is refused, as at upload)."""
    others = Bot.objects.filter(owner_id=bot.owner_id).exclude(id=bot.id)
    name = bot_name_check(name, owner_bots=others.values_list("name", flat=True))
    if name == bot.name:
        return bot
    bot.name = name
    try:
        with transaction.atomic():
            bot.save(update_fields=["name"])
    except IntegrityError:  # the same name taken at the same moment
        raise ValidationError(f"you already have a bot called {name!r}") from None
    return bot


@transaction.atomic
def bot_retire(*, bot: Bot) -> Bot:
    """The bot leaves matchmaking and the leaderboards (its ratings are kept, inactive).
    Matches made already play to their end; its tournament entries stay."""
    if bot.retired is None:
        bot.retired = timezone.now()
        bot.save(update_fields=["retired"])
        Rating.objects.filter(bot=bot).update(active=False)
    return bot


@transaction.atomic
def bot_reactivate(*, bot: Bot) -> Bot:
    """The bot back on its game's active ladders, with the ratings it had (a ladder
    opened since it retired rates it afresh)."""
    if bot.retired is None:
        return bot
    bot.retired = None
    bot.save(update_fields=["retired"])
    version = bot.versions.filter(status=BotVersion.Status.ACTIVE).first()
    if version is not None:
        now = timezone.now()
        for ladder in Ladder.objects.filter(game=bot.game, active=True):
            Rating.objects.get_or_create(
                ladder=ladder, bot=bot, defaults={"version": version, "deviation_at": now}
            )
        Rating.objects.filter(bot=bot, ladder__active=True).update(active=True)
    return bot


def deletion_problem(bot: Bot) -> str | None:
    """Why the bot cannot be deleted now, or None."""
    seats = MatchSeat.objects.filter(version__bot=bot)
    if seats.exclude(match__kind=Match.Kind.VALIDATION).exists():
        return (
            f"{bot.name} has played matches that other bots' histories and replays keep: "
            "retire it instead (it leaves the ladders; its history stays)"
        )
    if VersionTest.objects.filter(baseline__bot=bot).exclude(bot=bot).exists():
        return f"another user's version test measures against {bot.name}: retire it instead"
    if Entry.objects.filter(bot=bot).exists():
        return f"{bot.name} is entered in a tournament: withdraw it first, or retire it"
    if bot.versions.filter(status=BotVersion.Status.VALIDATING).exists():
        return f"a version of {bot.name} is being validated: try again when it is judged"
    return None


def bot_delete(*, bot: Bot) -> None:
    """Delete the bot, its versions, their validation matches and their stored files;
    BotInUse if `deletion_problem` has a reason not to."""
    with transaction.atomic():
        locked = Bot.objects.select_for_update().get(pk=bot.pk)
        problem = deletion_problem(locked)
        if problem is not None:
            raise BotInUse(problem)
        validations = Match.objects.filter(
            kind=Match.Kind.VALIDATION, seats__version__bot=locked
        ).distinct()
        files = [m.replay.name for m in validations if m.replay]
        for match in validations:
            files += timeline_names(match.id, match.game, match.players)
        files += [v.archive.name for v in locked.versions.all() if v.archive]
        validations.delete()
        Rating.objects.filter(bot=locked).delete()
        VersionTest.objects.filter(bot=locked).delete()
        locked.versions.all().delete()
        locked.delete()
        transaction.on_commit(lambda: _delete_files(files))


def _delete_files(names: list[str]) -> None:
    for name in names:
        default_storage.delete(name)  # a name with no file is no error
