"""Reads only the pages need, built on the apps' selectors (`agon.<app>.selectors`): the
same ladders, leaderboards, bots, matches and seats the API shows, read once."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count, Exists, OuterRef, Prefetch, Q

from agon.bots.models import Bot, BotVersion
from agon.ladders.models import Ladder, Rating, RatingChange
from agon.ladders.selectors import LeaderboardListing, Standing, ladder_list
from agon.matches.models import Match, MatchSeat
from agon.matches.selectors import ListedMatch, MatchListing
from agon.version_testing.models import VersionTest
from agon.version_testing.services import NOT_NEEDED
from competition.formats.core import ScheduledGame
from competition.version_pairing import BASELINE, CANDIDATE, pair_legs
from engine.replay import Replay, ReplayError

# --- home and ladders ---------------------------------------------------------------------


@dataclass
class LadderSummary:
    ladder: Ladder
    rated: int
    leaders: list[Standing]


def ladders_with_leaders(*, top: int = 3) -> list[LadderSummary]:
    """The active ladders with the number of bots rated and the best `top` of them."""
    return [
        LadderSummary(ladder, ladder.bots, LeaderboardListing(ladder_id=ladder.id)[:top])  # type: ignore[attr-defined]
        for ladder in ladder_list().filter(active=True)
    ]


CHALLENGE_OPPONENTS = 200
"""The most opponents a ladder's challenge form offers: its best rated bots."""


@dataclass
class ChallengeChoices:
    own_bots: list[tuple[int, str]]
    """The user's bots of the ladder's game that have an active version: (id, name)."""
    opponents: list[tuple[int, str]]
    """The ladder's rated bots, best first: (id, "owner/name · rating")."""


def challenge_choices(*, ladder: Ladder, owner: User) -> ChallengeChoices:
    own = (
        Bot.objects.filter(owner=owner, game=ladder.game, versions__status=BotVersion.Status.ACTIVE)
        .order_by("name")
        .values_list("id", "name")
    )
    standings = LeaderboardListing(ladder_id=ladder.id)[:CHALLENGE_OPPONENTS]
    return ChallengeChoices(
        own_bots=list(own),
        opponents=[(s.bot, f"{s.owner}/{s.name} · {s.shown}") for s in standings],
    )


def live_matches(*, limit: int = 10) -> list[ListedMatch]:
    """The home page's: public matches only, the same for everybody."""
    return MatchListing(viewer=None, status=Match.Status.RUNNING)[:limit]


def recent_matches(*, limit: int = 10) -> list[ListedMatch]:
    """The home page's: public matches only, the same for everybody."""
    return MatchListing(viewer=None, status=Match.Status.FINISHED, by_finish=True)[:limit]


# --- bots ---------------------------------------------------------------------------------


@dataclass
class RatingHistory:
    ladder: Ladder
    rating: Rating | None
    changes: list[RatingChange] = field(default_factory=list)


@dataclass
class BotRecord:
    played: int
    wins: int
    """Finished first alone."""
    shared_firsts: int
    """Shared the first place: ties, not wins."""
    faults: int


def rating_histories(*, bot: Bot) -> list[RatingHistory]:
    """Per ladder the bot has a rating on (or had changes on): its rating changes in order.
    The bot comes from `agon.bots.selectors.bot_get`, its ratings with their ladders."""
    ratings = {r.ladder_id: r for r in bot.ratings.all()}
    histories: dict[int, RatingHistory] = {
        ladder_id: RatingHistory(rating.ladder, rating) for ladder_id, rating in ratings.items()
    }
    for change in RatingChange.objects.filter(bot=bot).select_related("ladder").order_by("id"):
        history = histories.get(change.ladder_id)
        if history is None:
            history = histories[change.ladder_id] = RatingHistory(change.ladder, None)
        history.changes.append(change)
    return sorted(histories.values(), key=lambda h: (h.ladder.players, h.ladder.id))


def bot_record(*, bot: Bot) -> BotRecord:
    """The bot's public record: its finished public matches (a private event's games
    are nobody else's business, and count in no public record; a human game is a
    person's practice, not a bot's result)."""
    seats = (
        MatchSeat.objects.filter(
            version__bot=bot, match__status=Match.Status.FINISHED, match__private=False
        )
        .exclude(match__kind=Match.Kind.HUMAN)
        .annotate(
            shared=Exists(
                MatchSeat.objects.filter(match=OuterRef("match"), rank=1).exclude(pk=OuterRef("pk"))
            )
        )
    )
    counts = seats.aggregate(
        played=Count("id"),
        wins=Count("id", filter=Q(rank=1, shared=False)),
        shared_firsts=Count("id", filter=Q(rank=1, shared=True)),
        faults=Count("id", filter=~Q(fault="")),
    )
    return BotRecord(counts["played"], counts["wins"], counts["shared_firsts"], counts["faults"])


def bot_games(*, bot: Bot, viewer: Any, ranked: bool) -> MatchListing:
    """The bot's matches `viewer` may see, newest first: its ranked games, or
    (`ranked=False`) all its others (challenges, tournaments, version tests)."""
    return MatchListing(
        viewer=viewer, bot_id=bot.id, kinds=[Match.Kind.RANKED], other_kinds=not ranked
    )


def bot_matches(*, bot: Bot, viewer: Any, limit: int = 20) -> list[ListedMatch]:
    """The bot's latest matches that `viewer` may see (agon.matches.visibility)."""
    return MatchListing(viewer=viewer, bot_id=bot.id)[:limit]


def bots_of(*, owner: User) -> list[Bot]:
    """The owner's bots, newest first, with their versions (newest first)."""
    return list(
        Bot.objects.filter(owner=owner)
        .prefetch_related(Prefetch("versions", queryset=BotVersion.objects.order_by("-number")))
        .order_by("-id")
    )


def bot_of_owner(*, owner: User, bot_id: int) -> Bot | None:
    return (
        Bot.objects.filter(owner=owner, id=bot_id)
        .prefetch_related(Prefetch("versions", queryset=BotVersion.objects.order_by("-number")))
        .first()
    )


def ladders_of(*, bot: Bot) -> list[Rating]:
    """The bot's active ratings with their open ladders: where it plays ranked matches."""
    return list(
        Rating.objects.filter(bot=bot, active=True, ladder__active=True)
        .select_related("ladder")
        .order_by("ladder__players", "ladder_id")
    )


def version_states(*, owner: User) -> dict[str, str]:
    """Each version of the owner's bots: its status (what the my-bots page polls)."""
    return {
        str(version_id): status
        for version_id, status in BotVersion.objects.filter(bot__owner=owner).values_list(
            "id", "status"
        )
    }


# --- one match ----------------------------------------------------------------------------


def match_rating_changes(*, match: Match) -> dict[int, RatingChange]:
    """The match's rating changes by bot id."""
    return {change.bot_id: change for change in RatingChange.objects.filter(match=match)}


def match_result_details(*, match: Match) -> list[Any]:
    """The game's score breakdown per seat, from the stored replay (empty without one)."""
    if match.status != Match.Status.FINISHED or not match.replay:
        return []
    try:
        with match.replay.open("rb") as stored:
            replay = Replay.from_json(json.loads(stored.read()))
    except (OSError, ValueError, ReplayError):
        return []
    details = replay.result.get("details")
    return details if isinstance(details, list) else []


# --- version tests ------------------------------------------------------------------------


@dataclass
class VersionTestGameRow:
    pair: int
    leg: int
    table: str
    """Whose table at mirrored tables ("candidate's", "baseline's"); empty at two players."""
    match: Match
    candidate_rank: int | None
    """Where the candidate finished at this table (None until then, or not at it)."""
    baseline_rank: int | None

    @property
    def not_needed(self) -> bool:
        """Dropped unplayed: the test was over before its turn came."""
        return self.match.status == Match.Status.FAILED and self.match.error == NOT_NEEDED


def version_test_game_rows(*, test: VersionTest) -> list[VersionTestGameRow]:
    """The test's games in order, with where the candidate and the baseline finished
    (their seats are those the pairing gave them: a builtin baseline may sit with builtin
    opponents of the same name)."""
    games = (
        test.games.select_related("match")
        .prefetch_related("match__seats")
        .order_by("pair", "leg", "side")
    )
    legs_of: dict[int, list[list[ScheduledGame]]] = {}
    rows = []
    for game in games:
        match = game.match
        if match is None:
            continue  # waiting for room in the background share: not shown yet
        legs = legs_of.setdefault(game.pair, pair_legs(game.pair, test.seed, test.players))
        entrants = legs[game.leg][game.side].bots
        ranks = {seat.seat: seat.rank for seat in match.seats.all()}
        candidate, baseline = (
            ranks.get(entrants.index(entrant)) if entrant in entrants else None
            for entrant in (CANDIDATE, BASELINE)
        )
        table = "" if test.players == 2 else ("candidate's" if game.side == 0 else "baseline's")
        rows.append(VersionTestGameRow(game.pair, game.leg, table, match, candidate, baseline))
    return rows
