"""Ladder writes: default ladders, ratings entering and applying, matchmaking rounds,
challenges (unranked matches on a ladder's settings)."""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Sequence
from datetime import datetime, timedelta
from random import Random

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max, Q, QuerySet
from django.utils import timezone

from agon.bots.models import Bot, BotVersion
from agon.ladders.matchmaking import (
    Candidate,
    LadderLoad,
    Pair,
    meetings,
    pair_memory,
    pick_tables,
    seatable,
    share_out,
)
from agon.ladders.models import Ladder, Rating, RatingChange
from agon.ladders.notices import milestone_reached, rating_milestone_notify
from agon.ladders.selectors import ranked_matches_since
from agon.matches.models import Match, MatchSeat
from agon.matches.selectors import seats_with_versions
from agon.matches.services import match_create
from agon.ratings.stored import SETTLED_COLUMNS
from competition import ratings
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
    """A newly active version plays for its bot on every active open ladder of its
    game, and on the competitions' ladders the bot was entered on that are not pinned
    yet (frozen). A bot that was rated keeps its rating; the new version is provisional
    again. A retired bot's ratings stay off the boards (`agon.bots.retirement`)."""
    entered = []
    now = timezone.now()
    # Locked, as retiring locks it: a bot retired as its version passes stays retired.
    retired = Bot.objects.select_for_update().values_list("retired", flat=True)
    playing = retired.get(pk=version.bot_id) is None
    entered_on = Rating.objects.filter(bot_id=version.bot_id, ladder__open=False).values_list(
        "ladder_id", flat=True
    )
    # A competition's ladders locked, as its freeze locks them to pin them: a version
    # passing as the competition freezes either goes in before, or stays out.
    closed = Ladder.objects.select_for_update().filter(id__in=list(entered_on), pinned=False)
    ladders = [
        *Ladder.objects.filter(game=version.bot.game, active=True, open=True),
        *closed.filter(active=True),
    ]
    for ladder in ladders:
        rating, created = Rating.objects.select_for_update().get_or_create(
            ladder=ladder,
            bot=version.bot,
            defaults={"version": version, "deviation_at": now, "active": playing},
        )
        if not created:
            rating.version = version
            rating.version_games = 0
            rating.active = playing
            aged = ratings.aged(rating.current, rating.idle_seconds(now))
            rating.settle(ratings.new_version(aged), games=0, at=now)
            rating.save(
                update_fields=[*SETTLED_COLUMNS, "version", "version_games", "active", "updated"]
            )
        entered.append(rating)
    return entered


def ratings_apply(*, match: Match, seats: Sequence[MatchSeat] | None = None) -> list[RatingChange]:
    """Rate a finished ranked match by the rating system (`competition.ratings`); call inside its
    finishing transaction (which may pass the seats it has, ranked, with their versions).
    The unique (match, bot) constraint makes a second application fail. Which matches move
    ratings is agon.match_kinds' call (ranked ones); one on no ladder moves none."""
    if match.ladder_id is None:
        return []
    ranked = sorted(
        seats_with_versions(match) if seats is None else seats, key=lambda seat: seat.seat
    )
    bot_ids = [seat.version.bot_id for seat in ranked if seat.version]
    rows = {
        r.bot_id: r
        for r in Rating.objects.select_for_update()
        .select_related("bot", "ladder")
        .filter(ladder_id=match.ladder_id, bot_id__in=bot_ids)
    }
    rated = [rows[bot_id] for bot_id in bot_ids]
    now = timezone.now()
    befores = [ratings.aged(row.current, row.idle_seconds(now)) for row in rated]
    afters = ratings.update(befores, match.ranks, [row.version_games for row in rated])
    changes = []
    firsts = sum(seat.rank == 1 for seat in ranked)
    for seat, row, before, after in zip(ranked, rated, befores, afters, strict=True):
        assert seat.version is not None  # noqa: S101 - ranked seats are always versions
        change = RatingChange(
            match=match,
            ladder_id=match.ladder_id,
            bot_id=row.bot_id,
            version=seat.version,
            provisional=ratings.is_provisional(before, row.version_games),
        )
        change.record(before, after)
        changes.append(change)
        settled_before = row.rankable
        row.games += 1
        row.version_games += 1
        row.settle(after, games=row.version_games, at=now)
        row.wins += int(seat.rank == 1 and firsts == 1)
        row.shared_firsts += int(seat.rank == 1 and firsts > 1)
        row.save(
            update_fields=[
                *SETTLED_COLUMNS,
                *("games", "version_games", "wins", "shared_firsts", "updated"),
            ]
        )
        milestone = milestone_reached(before.value, after.value, settled_before=settled_before)
        if row.rankable and milestone is not None:
            rating_milestone_notify(row, row.ladder, milestone)
    RatingChange.objects.bulk_create(changes)
    return changes


def ratings_age(*, now: datetime | None = None) -> int:
    """Bring the uncertainty of the ratings idle for AGON_RATING_AGE_SECONDS or more up to
    `now` (an idle bot's rating is known less well as time passes, and may become
    provisional again); how many ratings it aged. Celery beat runs it."""
    now = now or timezone.now()
    idle = Rating.objects.filter(
        deviation_at__lt=now - timedelta(seconds=settings.AGON_RATING_AGE_SECONDS)
    )
    aged = []
    for row in idle.iterator():
        row.settle(
            ratings.aged(row.current, row.idle_seconds(now)), games=row.version_games, at=now
        )
        aged.append(row)
    Rating.objects.bulk_update(aged, list(SETTLED_COLUMNS), batch_size=500)
    return len(aged)


def matchmaking_round(*, rng: Random | None = None) -> list[Match]:
    """Top the queue of ranked matches up to AGON_QUEUE_TARGET waiting for a worker,
    shared between the active ladders by need (agon.ladders.matchmaking.share_out).
    Workers read the background share's queue first: a full ranked queue holds no
    tournament or version test back (agon.matches.background)."""
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
    ladders = {ladder.id: ladder for ladder in Ladder.objects.filter(active=True).order_by("id")}
    rated, free = _candidates(list(ladders), pending)
    loads = [
        LadderLoad(
            ladder_id=ladder.id,
            players=ladder.players,
            bots=len(rated[ladder.id]),
            free=seatable(free[ladder.id], ladder.players),
            recent=recent.get(ladder.id, 0),
        )
        for ladder in ladders.values()
    ]
    created = []
    for ladder_id, tables in share_out(loads, wanted).items():
        ladder = ladders[ladder_id]
        met = _recent_meetings(ladder, len(rated[ladder_id]))
        for table in pick_tables(free[ladder_id], ladder.players, tables, rng, met):
            versions = _playing_versions(ladder, table)
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


def _playing_versions(ladder: Ladder, bot_ids: Sequence[int]) -> dict[int, BotVersion]:
    """Who plays for each bot on the ladder: its active version, or on a pinned ladder
    the version its rating names (frozen there, whatever the bot uploaded since)."""
    if ladder.pinned:
        return {
            rating.bot_id: rating.version
            for rating in Rating.objects.filter(ladder=ladder, bot_id__in=bot_ids).select_related(
                "version"
            )
        }
    return {
        v.bot_id: v
        for v in BotVersion.objects.filter(bot_id__in=bot_ids, status=BotVersion.Status.ACTIVE)
    }


def _candidates(
    ladder_ids: list[int], pending: QuerySet[Match]
) -> tuple[dict[int, list[Candidate]], dict[int, list[Candidate]]]:
    """Per ladder: the bots rated on it (their rating active: not retired) with an
    active version that is not paused (as broken), and those of them in none of its
    `pending` matches. Each carries its owner, unless the owner is a house account
    (AGON_HOUSE_ACCOUNTS), whose bots may meet each other. A statement each for every
    ladder at once (a round looks at every active ladder)."""
    busy: dict[int, set[int]] = {ladder_id: set() for ladder_id in ladder_ids}
    for ladder_id, bot_id in (
        pending.filter(ladder_id__in=ladder_ids)
        .values_list("ladder_id", "seats__version__bot_id")
        .exclude(seats__version=None)
    ):
        busy[ladder_id].add(bot_id)
    last_played = {
        (ladder_id, bot_id): last
        for ladder_id, bot_id, last in MatchSeat.objects.filter(
            match__ladder_id__in=ladder_ids, match__kind=Match.Kind.RANKED
        )
        .values_list("match__ladder_id", "version__bot_id")
        .annotate(last=Max("match__created"))
        .order_by()
    }
    overdue_before = timezone.now() - timedelta(seconds=settings.AGON_MATCHMAKING_MAX_WAIT_SECONDS)
    house = set(
        User.objects.filter(username__in=settings.AGON_HOUSE_ACCOUNTS).values_list("id", flat=True)
    )
    rated: dict[int, list[Candidate]] = {ladder_id: [] for ladder_id in ladder_ids}
    for r in (
        Rating.objects.filter(
            Q(version__status="active") | Q(ladder__pinned=True),
            ladder_id__in=ladder_ids,
            active=True,
            version__paused_reason="",
        )
        .select_related("bot")
        .order_by("ladder_id", "bot_id")
    ):
        rated[r.ladder_id].append(
            Candidate(
                r.bot_id,
                r.current.value,
                r.version_games,
                r.current.deviation,
                overdue=last_played.get((r.ladder_id, r.bot_id), overdue_before) <= overdue_before,
                owner=None if r.bot.owner_id in house else r.bot.owner_id,
            )
        )
    free = {
        ladder_id: [c for c in candidates if c.bot_id not in busy[ladder_id]]
        for ladder_id, candidates in rated.items()
    }
    return rated, free


def _recent_meetings(ladder: Ladder, bots: int) -> Counter[Pair]:
    """How often each pair of bots met in the ladder's last ranked matches (`pair_memory`
    of them, for its number of rated bots)."""
    recent = Match.objects.filter(ladder=ladder, kind=Match.Kind.RANKED).order_by("-id")[
        : pair_memory(bots, ladder.players)
    ]
    tables: dict[int, list[int]] = {}
    for match_id, bot_id in MatchSeat.objects.filter(
        match__in=list(recent.values_list("id", flat=True)), version__isnull=False
    ).values_list("match_id", "version__bot_id"):
        tables.setdefault(match_id, []).append(bot_id)
    return meetings(tables.values())


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
    _refuse_too_many_waiting(user)
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
        if bot.retired is not None and bot.owner_id != user.id:
            raise ValidationError(f"the bot {bot.name!r} is retired: it takes no challenge")
    return ladder_match_create(
        ladder=ladder,
        kind=Match.Kind.CHALLENGE,
        seats=[versions[bot_id] for bot_id in bot_ids],
        created_by=user,
    )


def _refuse_too_many_waiting(user: User) -> None:
    """At most AGON_CHALLENGES_WAITING of a user's challenges queued or playing at once.
    The user's row is locked first, so that challenges sent together are counted one
    after the other."""
    User.objects.select_for_update().filter(id=user.id).first()
    waiting = Match.objects.filter(
        kind=Match.Kind.CHALLENGE,
        created_by=user,
        status__in=[Match.Status.QUEUED, Match.Status.RUNNING],
    ).count()
    allowed: int = settings.AGON_CHALLENGES_WAITING
    if waiting >= allowed:
        raise ValidationError(
            f"you have {waiting} challenge{'s' if waiting != 1 else ''} waiting or playing, "
            "the most at once: "
            "send another when one of them is over"
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
