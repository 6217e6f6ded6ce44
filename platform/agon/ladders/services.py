"""Ladder writes: default ladders, ratings entering and applying, matchmaking rounds,
challenges (unranked matches on a ladder's settings)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import timedelta
from random import Random

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from agon import ratings
from agon.bots.models import Bot, BotVersion
from agon.ladders.matchmaking import Candidate, LadderLoad, pick_tables, share_out
from agon.ladders.models import Ladder, Rating, RatingChange
from agon.ladders.selectors import ranked_matches_since
from agon.matches.models import Match, MatchSeat
from agon.matches.services import match_create
from agon.ratings.stored import RATING_COLUMNS
from engine.registry import game_ids, get_game


def ladder_ensure_defaults() -> list[Ladder]:
    """One ladder per game and player count with the standard options."""
    ladders = []
    for game_id in game_ids():
        game = get_game(game_id)
        for players in game.player_counts:
            ladder, _ = Ladder.objects.get_or_create(
                name=f"{game.name} {players}p",
                defaults={"game": game_id, "players": players, "options": {}},
            )
            ladders.append(ladder)
    return ladders


@transaction.atomic
def ratings_enter(*, version: BotVersion) -> list[Rating]:
    """A newly active version plays for its bot on every active ladder of its game.
    A bot that was rated keeps its rating; the new version is provisional again."""
    entered = []
    for ladder in Ladder.objects.filter(game=version.bot.game, active=True):
        rating, created = Rating.objects.select_for_update().get_or_create(
            ladder=ladder, bot=version.bot, defaults={"version": version}
        )
        if not created:
            rating.version = version
            rating.version_games = 0
            rating.active = True
            rating.save(update_fields=["version", "version_games", "active", "updated"])
        entered.append(rating)
    return entered


def ratings_apply(*, match: Match, seats: Sequence[MatchSeat] | None = None) -> list[RatingChange]:
    """Rate a finished ranked match by the rating system (`agon.ratings`); call inside its
    finishing transaction (which may pass the seats it has, ranked, with their versions).
    The unique (match, bot) constraint makes a second application fail. Which matches move
    ratings is agon.flows' call (ranked ones); one on no ladder moves none."""
    if match.ladder_id is None:
        return []
    ranked = sorted(
        match.seats.select_related("version") if seats is None else seats,
        key=lambda seat: seat.seat,
    )
    bot_ids = [seat.version.bot_id for seat in ranked if seat.version]
    rows = {
        r.bot_id: r
        for r in Rating.objects.select_for_update().filter(
            ladder_id=match.ladder_id, bot_id__in=bot_ids
        )
    }
    rated = [rows[bot_id] for bot_id in bot_ids]
    afters = ratings.update(
        [row.current for row in rated], match.ranks, [row.version_games for row in rated]
    )
    changes = []
    firsts = sum(seat.rank == 1 for seat in ranked)
    for seat, row, after in zip(ranked, rated, afters, strict=True):
        assert seat.version is not None  # noqa: S101 - ranked seats are always versions
        change = RatingChange(
            match=match,
            ladder_id=match.ladder_id,
            bot_id=row.bot_id,
            version=seat.version,
            provisional=row.provisional,
        )
        change.record(row.current, after)
        changes.append(change)
        row.current = after
        row.games += 1
        row.version_games += 1
        row.wins += int(seat.rank == 1 and firsts == 1)
        row.shared_firsts += int(seat.rank == 1 and firsts > 1)
        row.save(
            update_fields=[
                *RATING_COLUMNS,
                *("games", "version_games", "wins", "shared_firsts", "updated"),
            ]
        )
    RatingChange.objects.bulk_create(changes)
    return changes


def matchmaking_round(*, rng: Random | None = None) -> list[Match]:
    """Top the queue of ranked matches up to AGON_QUEUE_TARGET waiting for a worker,
    shared between the active ladders by need (agon.ladders.matchmaking.share_out)."""
    rng = rng or Random(secrets.randbits(64))
    pending = Match.objects.filter(
        kind=Match.Kind.RANKED,
        ladder__isnull=False,
        status__in=[Match.Status.QUEUED, Match.Status.RUNNING],
    )
    wanted = settings.AGON_QUEUE_TARGET - pending.filter(status=Match.Status.QUEUED).count()
    if wanted <= 0:
        return []
    recent = ranked_matches_since(
        timezone.now() - timedelta(seconds=settings.AGON_FAIR_SHARE_SECONDS)
    )
    ladders, rated, free = {}, {}, {}
    for ladder in Ladder.objects.filter(active=True).order_by("id"):
        ladders[ladder.id] = ladder
        rated[ladder.id], free[ladder.id] = _candidates(ladder, pending.filter(ladder=ladder))
    loads = [
        LadderLoad(
            ladder_id=ladder.id,
            players=ladder.players,
            bots=len(rated[ladder.id]),
            free=len(free[ladder.id]),
            recent=recent.get(ladder.id, 0),
        )
        for ladder in ladders.values()
    ]
    created = []
    for ladder_id, tables in share_out(loads, wanted).items():
        ladder = ladders[ladder_id]
        for table in pick_tables(free[ladder_id], ladder.players, tables, rng):
            versions = {
                v.bot_id: v
                for v in BotVersion.objects.filter(
                    bot_id__in=table, status=BotVersion.Status.ACTIVE
                )
            }
            if len(versions) != len(table):
                continue  # a version changed meanwhile; the next round picks again
            created.append(
                ladder_match_create(
                    ladder=ladder,
                    kind=Match.Kind.RANKED,
                    seats=[versions[bot_id] for bot_id in table],
                )
            )
    return created


def _candidates(
    ladder: Ladder, pending: QuerySet[Match]
) -> tuple[list[Candidate], list[Candidate]]:
    """The bots rated on the ladder with an active version, and those of them in none of
    its `pending` matches."""
    busy = set(
        pending.values_list("seats__version__bot_id", flat=True).exclude(seats__version=None)
    )
    rated = [
        Candidate(r.bot_id, r.current.value, r.version_games)
        for r in Rating.objects.filter(ladder=ladder, active=True, version__status="active")
    ]
    return rated, [c for c in rated if c.bot_id not in busy]


@transaction.atomic
def challenge_create(*, user: User, ladder: Ladder, bot_ids: Sequence[int]) -> Match:
    """An unranked match on a ladder's settings between the active versions of the named
    bots, in the order given; the challenger must own at least one of them."""
    if not ladder.active:
        raise ValidationError(f"the ladder {ladder.name!r} is closed")
    if len(bot_ids) != ladder.players:
        raise ValidationError(
            f"the ladder {ladder.name!r} is for {ladder.players} bots, not {len(bot_ids)}"
        )
    if len(set(bot_ids)) != len(bot_ids):
        raise ValidationError("a bot cannot play against itself: name each bot once")
    bots = Bot.objects.in_bulk(bot_ids)
    missing = [bot_id for bot_id in bot_ids if bot_id not in bots]
    if missing:
        raise ValidationError(f"there is no bot with id {', '.join(map(str, missing))}")
    if not any(bot.owner_id == user.id for bot in bots.values()):
        raise PermissionDenied("a challenge needs at least one of your own bots")
    versions = {
        version.bot_id: version
        for version in BotVersion.objects.filter(
            bot_id__in=bot_ids, status=BotVersion.Status.ACTIVE
        ).select_related("bot")
    }
    for bot_id in bot_ids:
        bot = bots[bot_id]
        if bot.game != ladder.game:
            raise ValidationError(f"the bot {bot.name!r} plays {bot.game}, not {ladder.game}")
        if bot_id not in versions:
            raise ValidationError(f"the bot {bot.name!r} has no active version yet")
    return ladder_match_create(
        ladder=ladder,
        kind=Match.Kind.CHALLENGE,
        seats=[versions[bot_id] for bot_id in bot_ids],
        created_by=user,
    )


def ladder_match_create(
    *,
    ladder: Ladder,
    kind: str,
    seats: Sequence[BotVersion],
    created_by: User | None = None,
    seed: int | None = None,
) -> Match:
    """A queued match on the ladder's settings (game, player count, options) between
    these versions, in seat order."""
    return match_create(
        kind=kind,
        ladder=ladder,
        game=ladder.game,
        players=ladder.players,
        options=ladder.options,
        seats=list(seats),
        created_by=created_by,
        seed=seed,
    )
