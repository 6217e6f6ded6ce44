"""Human games: start one, take a move.

A human game is an unranked match (`Match.Kind.HUMAN`, no ladder) with the user in one
seat and bots (uploaded or builtin) in the others, played by a worker like any match.
What it may cost is bounded here, when it is started: a user plays one at a time and at
most AGON_HUMAN_GAMES_PER_DAY a day, and the site holds at most
AGON_HUMAN_GAMES_IN_FLIGHT queued or playing (each holds a pool process while its human
thinks). A bot plays humans only while its owner lets it (`Bot.human_games`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from agon.bots.models import Bot, BotVersion
from agon.matches.models import HumanTurn, Match
from agon.matches.services import match_create
from engine.bots import BUILTIN_BOTS
from engine.registry import game_ids, get_game

WAITING = (Match.Status.QUEUED, Match.Status.RUNNING)


@transaction.atomic
def human_game_create(
    *,
    user: User,
    game: str,
    seat: int,
    opponents: Sequence[Bot | str],
) -> Match:
    """A human game of `game` with `user` in `seat` and `opponents` (bots, or builtin
    names) in the other seats in order; ValidationError or PermissionDenied says why not."""
    if game not in game_ids():
        raise ValidationError(f"there is no game {game!r}")
    players = len(opponents) + 1
    counts = get_game(game).player_counts
    if counts and players not in counts:
        shown = "/".join(str(n) for n in counts)
        raise ValidationError(f"{game} is played by {shown} players, not {players}")
    if not 0 <= seat < players:
        raise ValidationError(f"the seat must be from 0 to {players - 1}, not {seat}")
    seats: list[BotVersion | str | User] = [_opponent_seat(user, game, o) for o in opponents]
    seats.insert(seat, user)
    _refuse_over_limits(user)
    return match_create(
        kind=Match.Kind.HUMAN, game=game, players=players, options={}, seats=seats, created_by=user
    )


def _opponent_seat(user: User, game: str, opponent: Bot | str) -> BotVersion | str:
    if isinstance(opponent, str):
        if opponent not in BUILTIN_BOTS:
            raise ValidationError(f"there is no builtin bot {opponent!r}")
        return opponent
    if opponent.game != game:
        raise ValidationError(f"the bot {opponent.name!r} plays {opponent.game}, not {game}")
    if opponent.owner_id != user.id:
        if not opponent.human_games:
            raise PermissionDenied(f"the owner of {opponent.name!r} does not let it play humans")
        if opponent.retired is not None:
            raise ValidationError(f"the bot {opponent.name!r} is retired")
    version = opponent.active_version()
    if version is None:
        raise ValidationError(f"the bot {opponent.name!r} has no active version yet")
    return version


def _refuse_over_limits(user: User) -> None:
    """One game at a time per user, AGON_HUMAN_GAMES_PER_DAY a day, and at most
    AGON_HUMAN_GAMES_IN_FLIGHT on the site. The user's row is locked first, so that a
    user's games started together are counted one after the other; the site's cap may be
    passed by one when two users start at the same instant (it bounds, it does not bill)."""
    User.objects.select_for_update().filter(id=user.id).first()
    games = Match.objects.filter(kind=Match.Kind.HUMAN)
    if games.filter(created_by=user, status__in=WAITING).exists():
        raise ValidationError("you are already playing a game: finish it first")
    day = timezone.now() - timedelta(days=1)
    per_day: int = settings.AGON_HUMAN_GAMES_PER_DAY
    if games.filter(created_by=user, created__gte=day).count() >= per_day:
        raise ValidationError(f"you have played your {per_day} games of the last 24 hours")
    in_flight: int = settings.AGON_HUMAN_GAMES_IN_FLIGHT
    if games.filter(status__in=WAITING).count() >= in_flight:
        raise ValidationError(
            f"{in_flight} human games are being played, the most the workers take at once: "
            "try again in a few minutes"
        )


def human_move_submit(*, user: User, match_id: int, number: int, choice: int) -> HumanTurn:
    """Answer turn `number` of the user's seat in the match with its `choice`-th legal
    action. Only the seat's player may, only while the turn waits, only once."""
    match = Match.objects.filter(id=match_id, kind=Match.Kind.HUMAN).first()
    if match is None:
        raise ValidationError(f"there is no human game {match_id}")
    if not match.seats.filter(human=user).exists():
        raise PermissionDenied("you do not play in this game")
    turn = HumanTurn.objects.filter(match=match, number=number).first()
    if turn is None or turn.seat not in _seats_of(match, user):
        raise ValidationError(f"turn {number} has not come yet")
    if turn.expired:
        raise ValidationError(f"turn {number} timed out: the game went on without you")
    if turn.moved is not None:
        raise ValidationError(f"turn {number} is already played")
    if not 0 <= choice < len(turn.legal):
        raise ValidationError(f"turn {number} has {len(turn.legal)} moves, from 0; not {choice}")
    answered = HumanTurn.objects.filter(id=turn.id, moved__isnull=True, expired=False).update(
        move=turn.legal[choice], moved=timezone.now()
    )
    if answered != 1:
        raise ValidationError(f"turn {number} is over")
    turn.refresh_from_db()
    return turn


def _seats_of(match: Match, user: User) -> set[int]:
    return set(match.seats.filter(human=user).values_list("seat", flat=True))


def bot_human_games_set(*, bot: Bot, allowed: bool) -> Bot:
    """The owner's word on whether others may play the bot in human games."""
    Bot.objects.filter(id=bot.id).update(human_games=allowed)
    bot.human_games = allowed
    return bot
