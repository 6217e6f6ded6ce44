"""Version-test writes: start a test within its owner's budget, and take each of its
games' ends into account exactly once.

`version_test_create` checks the request, reserves the test's game limit from its owner's
budget (under a lock on the owner's row, so concurrent starts cannot both slip in) and
stores the first pairs. A stored game waits for room in the background share of the
workers (agon.matches.background), which gives it a match through
`version_test_dispatch`. Every end of one of its matches comes to
`version_test_game_ended`, inside the transaction that ends the match (the matches app
calls the kind's outcome there): a finished game may complete the next pair to count; a
game the platform failed to play is played again; the test, locked, counts its pairs in
order, stops at the verdict of its sequential test (`competition.sprt`) or
the game limit, and stores more pairs while it runs.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from agon.bots.models import Bot, BotVersion
from agon.matches.background import Waiting, dispatching_after
from agon.matches.models import Match
from agon.matches.services import match_create
from agon.version_testing.models import VersionTest, VersionTestGame
from agon.version_testing.notices import version_test_ended_notify
from competition.formats.core import Result, ScheduledGame, deal_seed
from competition.sprt import (
    DEFAULT_ALPHA,
    DEFAULT_BETA,
    DEFAULT_ELO0,
    DEFAULT_ELO1,
    Sprt,
    elo_interval,
    pair_outcome,
)
from competition.version_pairing import leg_score, pair_legs
from engine.bots import BUILTIN_BOTS
from engine.registry import get_game

BUDGET_PERIOD = timedelta(days=1)
ELO_BOUND = 1000.0
"""elo0 and elo1 lie within +-ELO_BOUND (the estimate is clamped there too, and an interval's
side beyond it is unbounded: None)."""
SEED_BITS = 63
"""A test's own seed (a signed 64-bit column); its pairs' seeds are 64-bit, as in `agon match`."""
PLAYED_VERSIONS = (BotVersion.Status.ACTIVE, BotVersion.Status.RETIRED)
"""The versions that passed validation: the only ones a test may play."""
NOT_NEEDED = "not needed: its version test was over before it was played"


class BudgetExceeded(Exception):
    """The owner's budget of version-test games has no room for this test yet."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Baseline:
    """What the candidate is measured against: exactly one of a version number of the
    same bot, another bot (its active version: one of the owner's, or another user's
    public bot, see `baseline_offered`) or a builtin bot."""

    version: int | None = None
    bot: int | None = None
    builtin: str | None = None


def _played_version(bot: Bot, number: int, role: str) -> BotVersion:
    version = BotVersion.objects.select_related("bot__owner").filter(bot=bot, number=number).first()
    if version is None:
        raise ValidationError(f"{bot.name} has no version {number} to be the {role}")
    if version.status not in PLAYED_VERSIONS:
        raise ValidationError(
            f"{bot.name} v{number} has not passed validation ({version.status}): "
            f"it cannot be the {role}"
        )
    return version


def baseline_offered(other: Bot, bot: Bot) -> bool:
    """Whether `bot`'s versions may be tested against `other`'s active version: another
    bot of the same game, the owner's own or one its owner opened to other users' events
    (`Bot.open_to_events`, the consent that lets them enter it into their private
    tournaments). Nobody else's private bot is ever played for them."""
    return other.game == bot.game and (other.owner_id == bot.owner_id or other.open_to_events)


def _baseline_seat(bot: Bot, candidate: BotVersion, baseline: Baseline) -> BotVersion | str:
    given = [value for value in (baseline.version, baseline.bot, baseline.builtin) if value]
    if len(given) != 1:
        raise ValidationError(
            "name one baseline: a version of this bot, another bot, or a builtin bot"
        )
    if baseline.version is not None:
        if baseline.version == candidate.number:
            raise ValidationError("the baseline must be another version than the candidate")
        return _played_version(bot, baseline.version, "baseline")
    if baseline.builtin is not None:
        if baseline.builtin not in BUILTIN_BOTS:
            raise ValidationError(
                f"there is no builtin bot {baseline.builtin!r}: {', '.join(BUILTIN_BOTS)}"
            )
        return baseline.builtin
    other = Bot.objects.filter(id=baseline.bot).first() if baseline.bot is not None else None
    if other is not None and other.id == bot.id:
        raise ValidationError("to test against this bot, name one of its versions")
    if other is None or not baseline_offered(other, bot):
        # One answer for a bot that does not exist and one not offered: a request learns
        # nothing of a private bot (its game, its versions) by naming it.
        raise ValidationError(
            f"there is no public {get_game(bot.game).name} bot {baseline.bot} to test against: "
            "name one of your bots, or another user's that its owner opened to other users' "
            "events"
        )
    if other.retired is not None and other.owner_id != bot.owner_id:
        raise ValidationError(f"the bot {other.name!r} is retired: it plays no new test")
    active = BotVersion.objects.select_related("bot__owner").filter(
        bot=other, status=BotVersion.Status.ACTIVE
    )
    version = active.first()
    if version is None:
        raise ValidationError(f"the bot {other.name!r} has no active version yet")
    return version


def _opponents(game_id: str, players: int, opponents: Sequence[str]) -> list[str]:
    game = get_game(game_id)
    if players not in game.player_counts:
        counts = ", ".join(str(n) for n in game.player_counts)
        raise ValidationError(f"{game.name} is played by {counts} players, not {players}")
    if players == 2:
        return []
    given = list(opponents) or ["greedy"]
    unknown = [name for name in given if name not in BUILTIN_BOTS]
    if unknown:
        raise ValidationError(
            f"the fixed opponents are builtin bots ({', '.join(BUILTIN_BOTS)}), "
            f"not {', '.join(repr(name) for name in unknown[:3])}"
        )
    if len(given) > players - 1:
        raise ValidationError(f"a table of {players} has {players - 1} fixed opponents at most")
    return [given[i % len(given)] for i in range(players - 1)]


def _sprt(elo0: float, elo1: float, alpha: float, beta: float) -> Sprt:
    if not all(math.isfinite(value) for value in (elo0, elo1, alpha, beta)):
        raise ValidationError("elo0, elo1, alpha and beta are finite numbers")
    if not (-ELO_BOUND <= elo0 <= ELO_BOUND and -ELO_BOUND <= elo1 <= ELO_BOUND):
        raise ValidationError(f"elo0 and elo1 lie between {-ELO_BOUND:g} and {ELO_BOUND:g}")
    if not (0.001 <= alpha <= 0.5 and 0.001 <= beta <= 0.5):
        raise ValidationError("alpha and beta lie between 0.001 and 0.5")
    try:
        return Sprt(elo0=elo0, elo1=elo1, alpha=alpha, beta=beta)
    except ValueError as error:
        raise ValidationError(str(error)) from None


def budget_used(*, user: User, now: datetime) -> tuple[int, VersionTest | None]:
    """The games the user's tests of the last BUDGET_PERIOD take from the budget, and the
    oldest of those tests (the first whose games come back)."""
    recent = list(
        VersionTest.objects.filter(created_by=user, created__gt=now - BUDGET_PERIOD).order_by(
            "created"
        )
    )
    return sum(test.budget_games for test in recent), (recent[0] if recent else None)


def _reserve_budget(user: User, games: int) -> None:
    """Refuse the test (BudgetExceeded) unless `games` more fit in the user's budget.
    Called with the user's row locked: starts by the same user take turns here."""
    budget = settings.AGON_VERSION_TEST_GAMES_PER_DAY
    now = timezone.now()
    used, oldest = budget_used(user=user, now=now)
    if used + games <= budget:
        return
    room = max(0, budget - used)
    wait = 60
    if oldest is not None:
        wait = max(1, math.ceil((oldest.created + BUDGET_PERIOD - now).total_seconds()))
    raise BudgetExceeded(
        f"your version tests may play {budget} games a day: {used} are taken by your tests "
        f"of the last 24 hours, {room} are left, and this test asks for {games}",
        retry_after=wait,
    )


@dispatching_after
@transaction.atomic
def version_test_create(
    *,
    user: User,
    bot: Bot,
    candidate: int,
    baseline: Baseline,
    players: int = 2,
    opponents: Sequence[str] = (),
    elo0: float = DEFAULT_ELO0,
    elo1: float = DEFAULT_ELO1,
    alpha: float = DEFAULT_ALPHA,
    beta: float = DEFAULT_BETA,
    max_games: int = 400,
    seed: int | None = None,
) -> VersionTest:
    """Start a test of the user's bot's version `candidate` against `baseline`; its first
    games get their matches as the background share has room, from the moment it is
    stored. Raises ValidationError for a request
    that cannot be played, PermissionDenied for somebody else's bot, BudgetExceeded when
    the owner's budget of games has no room for `max_games` yet."""
    if bot.owner_id != user.id:
        raise PermissionDenied("only the owner of this bot may test its versions")
    sprt = _sprt(elo0, elo1, alpha, beta)
    fixed = _opponents(bot.game, players, opponents)
    per_pair = 2 if players == 2 else 4
    if not per_pair <= max_games <= settings.AGON_VERSION_TEST_MAX_GAMES:
        raise ValidationError(
            f"max_games lies between {per_pair} (one pair) and "
            f"{settings.AGON_VERSION_TEST_MAX_GAMES}"
        )
    if max_games > settings.AGON_VERSION_TEST_GAMES_PER_DAY:
        raise ValidationError(
            f"max_games is above the daily budget of "
            f"{settings.AGON_VERSION_TEST_GAMES_PER_DAY} games"
        )
    tested = _played_version(bot, candidate, "candidate")
    against = _baseline_seat(bot, tested, baseline)
    User.objects.select_for_update().filter(id=user.id).get()
    _reserve_budget(user, max_games)
    test = VersionTest.objects.create(
        bot=bot,
        candidate=tested,
        baseline=against if isinstance(against, BotVersion) else None,
        baseline_builtin="" if isinstance(against, BotVersion) else against,
        opponents=fixed,
        game=bot.game,
        players=players,
        options={},
        seed=secrets.randbits(SEED_BITS) if seed is None else seed,
        elo0=sprt.elo0,
        elo1=sprt.elo1,
        alpha=sprt.alpha,
        beta=sprt.beta,
        max_games=max_games,
        pentanomial=[0] * 5,
        created_by=user,
    )
    _schedule(test)
    return test


def _entrants(test: VersionTest) -> list[BotVersion | str]:
    """Entrant index -> what sits there: candidate, baseline, then the fixed opponents."""
    baseline: BotVersion | str = test.baseline if test.baseline else test.baseline_builtin
    return [test.candidate, baseline, *test.opponents]


def _match_for(test: VersionTest, game: ScheduledGame, replay: int) -> Match:
    entrants = _entrants(test)
    return match_create(
        kind=Match.Kind.VERSION_TEST,
        game=test.game,
        players=test.players,
        options=test.options,
        seats=[entrants[entrant] for entrant in game.bots],
        created_by=test.created_by,
        seed=deal_seed(game, replay),
        background=True,
        private=True,  # the owner's business: agon.matches.visibility
    )


def _schedule(test: VersionTest) -> None:
    """Store pairs while fewer than AGON_VERSION_TEST_PAIRS_IN_FLIGHT are uncounted and
    the game limit allows (the test's row is the caller's, locked or new); their games
    wait for the background share to give them matches (when the caller's transaction
    ends: `version_test_create`'s, or the one ending a background match)."""
    while (
        test.status == VersionTest.Status.RUNNING
        and test.pairs_created < test.pair_limit
        and test.pairs_created - test.pairs_counted < settings.AGON_VERSION_TEST_PAIRS_IN_FLIGHT
    ):
        number = test.pairs_created
        VersionTestGame.objects.bulk_create(
            VersionTestGame(test=test, pair=number, leg=leg, side=side)
            for leg, games in enumerate(pair_legs(number, test.seed, test.players))
            for side in range(len(games))
        )
        test.pairs_created += 1
    test.save(update_fields=["pairs_created"])


def version_tests_waiting() -> list[Waiting]:
    """The running tests with games waiting for a match: the background share's source
    (agon.matches.background)."""
    held = list(
        VersionTestGame.objects.filter(test__status=VersionTest.Status.RUNNING, match__isnull=True)
        .values_list("test_id", "test__created_by_id", "test__created")
        .distinct()
        .order_by()
    )
    served = dict(
        Match.objects.filter(version_test_game__test_id__in=[key for key, *_ in held])
        .values_list("version_test_game__test_id")
        .annotate(last=Max("created"))
        .order_by()
    )
    return [
        Waiting("version_tests", key, owner, since, served.get(key)) for key, owner, since in held
    ]


@transaction.atomic
def version_test_dispatch(test_id: int, limit: int) -> int:
    """Give at most `limit` of the test's waiting games their matches, pair by pair;
    how many it gave."""
    test = (
        VersionTest.objects.select_for_update(of=("self",))
        .select_related("candidate__bot__owner", "baseline__bot__owner", "created_by")
        .filter(id=test_id, status=VersionTest.Status.RUNNING)
        .first()
    )
    if test is None:
        return 0
    rows = list(test.games.filter(match__isnull=True).order_by("pair", "leg", "side")[:limit])
    for row in rows:
        game = pair_legs(row.pair, test.seed, test.players)[row.leg][row.side]
        row.match = _match_for(test, game, row.replays)
        row.save(update_fields=["match"])
    return len(rows)


def version_test_game_ended(*, match: Match) -> None:
    """The outcome of a version test's match (inside the transaction that ended it)."""
    game = VersionTestGame.objects.filter(match=match).first()
    if game is None:
        return  # a match its test no longer waits for
    test = VersionTest.objects.select_for_update().select_related("candidate").get(id=game.test_id)
    if test.status != VersionTest.Status.RUNNING:
        return
    if match.status == Match.Status.FAILED:
        _replay_or_stop(test, game, match)
        return
    _count_ready_pairs(test)
    _schedule(test)


def _replay_or_stop(test: VersionTest, game: VersionTestGame, failed: Match) -> None:
    """A game the platform could not play (not a bot's fault: that is a lost game) is
    played again on the same seats, dealt afresh, AGON_VERSION_TEST_REPLAYS times at most."""
    if game.replays >= settings.AGON_VERSION_TEST_REPLAYS:
        _stop(
            test,
            status=VersionTest.Status.FAILED,
            error=f"match {failed.id} failed {game.replays + 1} times: {failed.error}"[:4000],
        )
        return
    game.match = None  # the background share gives it a new one, on the same seats
    game.replays += 1
    game.save(update_fields=["match", "replays"])


def _pair_results(test: VersionTest, number: int) -> list[list[Result]] | None:
    """The results of pair `number`, leg by leg, or None while one of its games is not
    finished."""
    legs = pair_legs(number, test.seed, test.players)
    results: list[list[Result]] = [[] for _ in legs]
    rows = test.games.filter(pair=number).select_related("match").order_by("leg", "side")
    for row in rows:
        if row.match is None or row.match.status != Match.Status.FINISHED:
            return None
        game = legs[row.leg][row.side]
        results[row.leg].append(Result(game, tuple(row.match.ranks)))
    if any(len(leg) != len(games) for leg, games in zip(results, legs, strict=True)):
        return None
    return results


def _count_ready_pairs(test: VersionTest) -> None:
    """Count the pairs whose games are all finished, in order of pair number (a pair
    done early waits for those before it), and stop at the verdict or the limit."""
    sprt = Sprt(elo0=test.elo0, elo1=test.elo1, alpha=test.alpha, beta=test.beta)
    counted = False
    while test.status == VersionTest.Status.RUNNING and test.pairs_counted < test.pairs_created:
        results = _pair_results(test, test.pairs_counted)
        if results is None:
            break
        scores = [leg_score(leg) for leg in results]
        test.wins += scores.count(1.0)
        test.draws += scores.count(0.5)
        test.losses += scores.count(0.0)
        test.pentanomial[pair_outcome(sum(scores))] += 1
        test.llr = sprt.evidence(test.pentanomial)
        test.llr_history.append(test.llr)
        test.pairs_counted += 1
        test.games_counted += test.games_per_pair
        counted = True
        verdict = sprt.verdict(test.pentanomial)
        if verdict is not None:
            _stop(test, status=VersionTest.Status.FINISHED, verdict=verdict)
        elif test.pairs_counted >= test.pair_limit:
            _stop(
                test, status=VersionTest.Status.FINISHED, verdict=VersionTest.Verdict.INCONCLUSIVE
            )
    if counted:
        estimate = elo_interval(test.pentanomial)
        test.elo, test.elo_low, test.elo_high = estimate.elo, estimate.low, estimate.high
        test.save()


def _stop(test: VersionTest, *, status: str, verdict: str = "", error: str = "") -> None:
    """End the test; its games still queued are not played (those already playing end
    unheeded). The caller saves the test."""
    test.status = status
    test.verdict = verdict
    test.error = error
    test.finished = timezone.now()
    queued = Q(version_test_game__test=test, status=Match.Status.QUEUED)
    Match.objects.filter(queued).update(
        status=Match.Status.FAILED, error=NOT_NEEDED, finished=test.finished
    )
    test.save()
    version_test_ended_notify(test)
