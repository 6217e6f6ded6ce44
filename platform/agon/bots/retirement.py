"""Retiring a bot: its owner takes it off the ladders, for good or until they bring it back.

A retired bot leaves the leaderboards, as lichess does with players who stop playing
(its boards list only those with a rated game in the last week, "so that players who no
longer use their accounts stop populating leaderboards"): a board ranks the bots one can
meet there. CodinGame keeps every bot ever submitted on its arenas' boards; ours would
then fill with bots that never play again. Nothing of its past is lost: its ratings stay
stored (its page and the API show them), and so do its matches, replays, rating changes
and tournament results, which other players' histories refer to.

What leaves the boards is the bot's ratings (`Rating.active`, the flag the leaderboards,
the ladders' counts and matchmaking read), so it is left out of every ladder at once
without another rule. Pausing (`agon.bots.pausing`) is another thing: a broken version
sits out of matchmaking, its bot still on the boards, until a new version or a resume.

A retired bot plays no new ranked match; its queued ranked matches are not played (they
fail at once, with the reason, so no worker claims them, as a cancelled tournament's);
one already running finishes and counts as usual. It enters no tournament and drops out
of those whose entry closes while it is retired (`agon.tournaments.scheduling`); one
that runs already goes on with it, as its other entrants were paired with it (its owner
withdraws it there to forfeit the rest). It plays no new challenge or version test of
another user's (those running go on); its owner may still test it and challenge with it.
A new version that passes validation keeps it retired. Brought back, it plays again on
its kept rating (which grew less certain while it was idle:
`agon.ladders.services.ratings_age`).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from agon.bots.models import Bot
from agon.ladders.models import Rating
from agon.matches.models import Match


def not_played_reason(bot: Bot) -> str:
    return f"not played: {bot.name} was retired by its owner"


@transaction.atomic
def bot_retire(*, bot: Bot) -> Bot:
    """Take the bot off every ladder (`bot.retired` keeps when it was first retired:
    retiring it again changes nothing)."""
    locked = Bot.objects.select_for_update().get(pk=bot.pk)
    if locked.retired is not None:
        bot.retired = locked.retired
        return bot
    now = timezone.now()
    bot.retired = now
    bot.save(update_fields=["retired"])
    Rating.objects.filter(bot=bot).update(active=False)
    Match.objects.filter(
        kind=Match.Kind.RANKED, status=Match.Status.QUEUED, seats__version__bot=bot
    ).update(status=Match.Status.FAILED, error=not_played_reason(bot), finished=now)
    return bot


@transaction.atomic
def bot_reactivate(*, bot: Bot) -> Bot:
    """Bring a retired bot back onto its game's ladders, on the ratings it had."""
    Bot.objects.select_for_update().get(pk=bot.pk)
    bot.retired = None
    bot.save(update_fields=["retired"])
    Rating.objects.filter(bot=bot).update(active=True)
    return bot
