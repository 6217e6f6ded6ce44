"""Version tests of a bot: is one of its versions stronger than another, or than a
reference bot? Pairs of games stopped by a sequential test (`competition.sprt`).

GET  /api/bots/{id}/tests/             the bot's tests, newest first (its owner's and staff's)
POST /api/bots/{id}/tests/             start one (the bot's owner; within a daily budget)
GET  /api/bots/{id}/tests/{test_id}/   one test with its LLR after each pair and its games
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from agon.api.bots import bot_or_404
from agon.api.common import IsOwner, error_responses, signed_in_user
from agon.api.pagination import PageNumberPagination, paginate
from agon.matches.models import Match
from agon.version_testing.models import VersionTest, VersionTestGame
from agon.version_testing.selectors import version_test_get, version_test_state, version_tests_of
from agon.version_testing.services import Baseline, BudgetExceeded, version_test_create
from competition import sprt_words
from competition.sprt import (
    DEFAULT_ALPHA,
    DEFAULT_BETA,
    DEFAULT_ELO0,
    DEFAULT_ELO1,
    Sprt,
    elo_interval,
)
from engine.bots import BUILTIN_BOTS


class VersionTestCreateSerializer(serializers.Serializer[Any]):
    candidate = serializers.IntegerField(
        min_value=1, help_text="The number of the version under test (it passed validation)."
    )
    baseline_version = serializers.IntegerField(
        min_value=1, required=False, help_text="Measure against this version of the same bot;"
    )
    baseline_bot = serializers.IntegerField(
        min_value=1,
        required=False,
        help_text="or against this bot's active version: another of your bots of the game, "
        "or another user's public one (open_to_events, not retired; any other is refused as "
        "if it did not exist);",
    )
    baseline_builtin = serializers.ChoiceField(
        choices=BUILTIN_BOTS,
        required=False,
        help_text="or against this builtin bot: name exactly one of the three.",
    )
    players = serializers.IntegerField(
        default=2,
        min_value=2,
        max_value=6,
        help_text="Bots at a table. Above 2 the two versions never meet: each plays a table "
        "against the same fixed opponents, each table dealt afresh, and the one with more points "
        "wins that comparison.",
    )
    opponents = serializers.ListField(
        child=serializers.ChoiceField(choices=BUILTIN_BOTS),
        default=list,
        max_length=5,
        help_text="The builtin bots filling the other seats above 2 players, repeated in "
        "turn (default greedy).",
    )
    elo0 = serializers.FloatField(
        default=DEFAULT_ELO0, help_text="H0: the candidate is elo0 Elo stronger or less."
    )
    elo1 = serializers.FloatField(
        default=DEFAULT_ELO1, help_text="H1: the candidate is at least elo1 Elo stronger."
    )
    alpha = serializers.FloatField(
        default=DEFAULT_ALPHA, help_text="The chance of accepting H1 (yes) when H0 is true."
    )
    beta = serializers.FloatField(
        default=DEFAULT_BETA, help_text="The chance of accepting H0 (no) when H1 is true."
    )
    max_games = serializers.IntegerField(
        default=400,
        min_value=2,
        help_text="The game limit: inconclusive if the test has not decided by then "
        "(at most AGON_VERSION_TEST_MAX_GAMES, and counted in your daily budget).",
    )


class BaselineSerializer(serializers.Serializer[Any]):
    bot_label = serializers.CharField(help_text="`owner/name@vN`, or `builtin:name`.")
    bot = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField(allow_null=True)
    builtin = serializers.CharField(allow_null=True)


class VersionTestSerializer(serializers.ModelSerializer[VersionTest]):
    candidate = serializers.IntegerField(source="candidate.number", read_only=True)
    baseline = serializers.SerializerMethodField()
    games = serializers.IntegerField(
        source="games_counted", read_only=True, help_text="Games of the pairs counted so far."
    )
    llr = serializers.FloatField(
        read_only=True,
        help_text="The test's evidence: the log wealth of its gambler against H0 when positive, "
        "of its gambler against H1 when negative (whichever is nearer its bound).",
    )
    llr_bounds = serializers.SerializerMethodField(
        help_text="log(beta) and log(1 / alpha): H0 accepted at or below the first, H1 at or "
        "above the second."
    )
    progress = serializers.SerializerMethodField(
        help_text="How far the evidence has gone towards H1 and towards H0, each from 0 to 1."
    )
    elo = serializers.SerializerMethodField(
        help_text="The estimated Elo difference, candidate less baseline (null before the first "
        "pair)."
    )
    elo_ci95 = serializers.SerializerMethodField(
        help_text="The 95% interval of the Elo difference (null before the first pair); a side "
        "is null where the games bound it no further: [85, null] is +85 or more."
    )
    question = serializers.SerializerMethodField(
        help_text="What the test asks, in words: 'Is v3 at least 50 Elo stronger than v2?'"
    )
    answer = serializers.SerializerMethodField(
        help_text="What it found so far, in words (as on the test's page)."
    )
    estimate = serializers.SerializerMethodField(
        help_text="The Elo estimate and its 95% interval, in words."
    )
    pentanomial = serializers.ListField(
        child=serializers.IntegerField(),
        read_only=True,
        help_text="Pairs by the candidate's points in them: 0, 1/2, 1, 3/2, 2.",
    )
    verdict = serializers.ChoiceField(
        choices=VersionTest.Verdict.choices,
        allow_blank=True,
        read_only=True,
        help_text="Empty while the test runs.",
    )

    class Meta:
        model = VersionTest
        fields: tuple[str, ...] = (
            "id",
            "bot",
            "game",
            "candidate",
            "baseline",
            "players",
            "opponents",
            "elo0",
            "elo1",
            "alpha",
            "beta",
            "max_games",
            "status",
            "verdict",
            "error",
            "games",
            "wins",
            "draws",
            "losses",
            "pentanomial",
            "llr",
            "llr_bounds",
            "progress",
            "elo",
            "elo_ci95",
            "question",
            "answer",
            "estimate",
            "created",
            "finished",
        )
        read_only_fields = fields

    @extend_schema_field(BaselineSerializer)
    def get_baseline(self, test: VersionTest) -> dict[str, Any]:
        version = test.baseline
        return {
            "bot_label": test.baseline_label,
            "bot": version.bot_id if version else None,
            "version": version.number if version else None,
            "builtin": test.baseline_builtin or None,
        }

    @extend_schema_field(serializers.ListField(child=serializers.FloatField()))
    def get_llr_bounds(self, test: VersionTest) -> list[float]:
        sprt = Sprt(elo0=test.elo0, elo1=test.elo1, alpha=test.alpha, beta=test.beta)
        return [sprt.lower, sprt.upper]

    @extend_schema_field(serializers.ListField(child=serializers.FloatField()))
    def get_progress(self, test: VersionTest) -> list[float]:
        sprt = Sprt(elo0=test.elo0, elo1=test.elo1, alpha=test.alpha, beta=test.beta)
        return list(sprt.progress(test.pentanomial or [0] * 5))

    @extend_schema_field(
        serializers.ListField(child=serializers.FloatField(allow_null=True), allow_null=True)
    )
    def get_elo_ci95(self, test: VersionTest) -> list[float | None] | None:
        if not sum(test.pentanomial):
            return None
        found = elo_interval(test.pentanomial)
        return [found.low, found.high]

    @extend_schema_field(serializers.FloatField(allow_null=True))
    def get_elo(self, test: VersionTest) -> float | None:
        """From the counts, as the page: tests counted before issue 24 stored the old
        interval."""
        return elo_interval(test.pentanomial).elo if sum(test.pentanomial) else None

    def get_question(self, test: VersionTest) -> str:
        return sprt_words.question(version_test_state(test=test))

    def get_answer(self, test: VersionTest) -> str:
        return sprt_words.answer(version_test_state(test=test))

    def get_estimate(self, test: VersionTest) -> str:
        return sprt_words.estimate(test.pentanomial or [0] * 5)


GAME_STATUSES = ("waiting", *Match.Status.values)
"""A game's status: waiting for room in the background share (no match yet), or its
match's."""


class VersionTestGameSerializer(serializers.ModelSerializer[VersionTestGame]):
    status = serializers.SerializerMethodField()

    @extend_schema_field(serializers.ChoiceField(choices=GAME_STATUSES))
    def get_status(self, game: VersionTestGame) -> str:
        return game.match.status if game.match is not None else "waiting"

    class Meta:
        model = VersionTestGame
        fields: tuple[str, ...] = ("pair", "leg", "side", "match", "status", "replays")
        read_only_fields = fields


class VersionTestDetailSerializer(VersionTestSerializer):
    llr_history = serializers.ListField(
        child=serializers.FloatField(), read_only=True, help_text="The LLR after each pair."
    )
    matches = VersionTestGameSerializer(
        source="games",
        many=True,
        read_only=True,
        help_text="Its games, pair by pair: leg 0 and 1, and at mirrored tables side 0 "
        "(the candidate's table) and 1 (the baseline's).",
    )

    class Meta(VersionTestSerializer.Meta):
        fields: tuple[str, ...] = (*VersionTestSerializer.Meta.fields, "llr_history", "matches")
        read_only_fields = fields


def over_budget(refused: BudgetExceeded) -> exceptions.Throttled:
    refusal = exceptions.Throttled(detail=str(refused))
    refusal.wait = refused.retry_after  # type: ignore[attr-defined]  # -> Retry-After
    return refusal


class VersionTestListView(APIView):
    pagination_class = PageNumberPagination
    permission_classes = (IsAuthenticatedOrReadOnly, IsOwner)

    @extend_schema(
        responses={200: VersionTestSerializer(many=True), **error_responses(400, 404)},
        summary="A bot's version tests",
        description="Its owner's business: the bot's owner and staff see them, anybody "
        "else an empty list.",
    )
    def get(self, request: Request, bot_id: int) -> Response:
        bot = bot_or_404(bot_id)
        paginator, page = paginate(self, version_tests_of(bot=bot, viewer=request.user))
        return paginator.get_paginated_response(VersionTestSerializer(page, many=True).data)

    @extend_schema(
        request=VersionTestCreateSerializer,
        responses={201: VersionTestDetailSerializer, **error_responses(400, 401, 403, 404, 429)},
        summary="Test a version of your bot",
        description="Pairs of games (seats swapped, each dealt afresh) between the candidate "
        "and the baseline, stopped when a sequential test accepts H0 (the candidate is elo0 Elo "
        "stronger or less) or H1 (at least elo1 Elo stronger) with error rates alpha and "
        "beta, or at max_games. The defaults (elo0 0, elo1 50, alpha = beta = 0.05) decide a "
        "sweep within 14 games and bots 100 Elo apart in about 100. Its games share the "
        "background part of the workers (AGON_BACKGROUND_SHARE) with private tournaments, "
        "whatever the ladders queue. A test takes max_games from your budget of "
        "AGON_VERSION_TEST_GAMES_PER_DAY games over 24 hours and gives back the games it "
        "did not need once it ends: 429 with Retry-After when there is no room.",
    )
    def post(self, request: Request, bot_id: int) -> Response:
        bot = bot_or_404(bot_id)
        self.check_object_permissions(request, bot)
        given = VersionTestCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = dict(given.validated_data)
        baseline = Baseline(
            version=data.pop("baseline_version", None),
            bot=data.pop("baseline_bot", None),
            builtin=data.pop("baseline_builtin", None),
        )
        try:
            test = version_test_create(
                user=signed_in_user(request), bot=bot, baseline=baseline, **data
            )
        except BudgetExceeded as refused:
            raise over_budget(refused) from None
        shown = version_test_get(bot_id=bot.id, test_id=test.id, viewer=request.user)
        return Response(VersionTestDetailSerializer(shown).data, status=status.HTTP_201_CREATED)


class VersionTestDetailView(APIView):
    @extend_schema(
        responses={200: VersionTestDetailSerializer, **error_responses(404)},
        summary="A version test, its LLR after each pair and its games",
        description="For the bot's owner and staff; to anybody else it does not exist.",
    )
    def get(self, request: Request, bot_id: int, test_id: int) -> Response:
        test = version_test_get(bot_id=bot_id, test_id=test_id, viewer=request.user)
        if test is None:
            raise exceptions.NotFound(f"bot {bot_id} has no version test {test_id}")
        return Response(VersionTestDetailSerializer(test).data)
