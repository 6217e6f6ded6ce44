"""Helpers of the competition tests: a competition made by staff, bots entered into it,
its phases stepped at chosen times and its ladder played by hand."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from agon.bots.models import Bot
from agon.competitions.models import Competition
from agon.competitions.phases import competitions_advance
from agon.competitions.services import competition_create, competition_enter
from agon.ladders.models import Ladder
from agon.matches.models import Match
from tests.platform.support import play_ranked
from tests.platform.tournaments.support import play_out


def staff_user(username: str = "organiser") -> User:
    return User.objects.create_user(username, is_staff=True)


def season(creator: User, **settings: object) -> Competition:
    """A competition of akropolis for two: open in a minute, frozen in an hour, its
    final (a round robin of the top 2) in two."""
    now = timezone.now()
    given: dict[str, object] = {
        "name": "Autumn season",
        "game": "akropolis",
        "player_counts": [2],
        "opens": now + timedelta(minutes=1),
        "freezes": now + timedelta(hours=1),
        "final_starts": now + timedelta(hours=2),
        "final_format": "round-robin",
        "final_size": 2,
        "seed": 11,
        "rules": "Be kind to the referee.",
        **settings,
    }
    return competition_create(creator=creator, **given)  # type: ignore[arg-type]


def enter(competition: Competition, bots: Sequence[Bot]) -> None:
    for bot in bots:
        competition_enter(user=bot.owner, competition_id=competition.id, bot_id=bot.id)


def at(moment: datetime) -> list[tuple[int, str]]:
    """Beat's step as if it ran at `moment` (just after it)."""
    return competitions_advance(now=moment + timedelta(seconds=1))


def its_ladder(competition: Competition, players: int = 2) -> Ladder:
    return competition.ladders.get(players=players)


def climb(ladder: Ladder, order: Sequence[Bot], games: int = 3) -> None:
    """Ranked games on the ladder in which each bot of `order` beats every later one."""
    for _ in range(games):
        for high, better in enumerate(order):
            for worse in order[high + 1 :]:
                play_ranked(ladder, [better, worse], [50, 10])


def first_wins(match: Match, bot: Bot) -> list[int]:
    """Scores for a made-up game: `bot` wins it."""
    seats = match.seats.order_by("seat").select_related("version")
    return [50 if seat.version and seat.version.bot_id == bot.id else 10 for seat in seats]


def finished_season(creator: User, bots: Sequence[Bot], **settings: object) -> Competition:
    """A season played to its archive: `bots` entered, the ladder climbed in their
    order, the final (the top 2) won by the first."""
    competition = season(creator, **settings)
    enter(competition, bots)
    at(competition.opens)
    climb(its_ladder(competition), bots, games=1)
    at(competition.final_starts)
    competition.refresh_from_db()
    assert competition.final is not None
    play_out(competition.final, decide=lambda match: first_wins(match, bots[0]))
    at(competition.final_starts)
    competition.refresh_from_db()
    assert competition.phase == Competition.Phase.FINISHED, competition.note
    return competition
