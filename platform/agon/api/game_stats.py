"""A game's statistics from its ranked matches (agon.game_stats):
`GET /api/games/{game}/stats/`."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from agon.api.common import error_responses
from agon.game_stats.stats import game_stats_kept
from engine.registry import game_ids


class ResultsSerializer(serializers.Serializer[Any]):
    played = serializers.IntegerField()
    wins = serializers.IntegerField(help_text="Matches it finished first alone.")
    shared_firsts = serializers.IntegerField(help_text="Matches whose first place it shared.")
    win_rate = serializers.FloatField(
        allow_null=True,
        help_text="A win counts 1, a first place shared by k seats 1/k; null without matches.",
    )
    interval = serializers.ListField(
        child=serializers.FloatField(),
        allow_null=True,
        help_text="The win rate's 95 % Wilson score interval, [low, high].",
    )


class SeatResultsSerializer(ResultsSerializer):
    seat = serializers.IntegerField(help_text="0 plays first.")


class OpeningSerializer(ResultsSerializer):
    move = serializers.CharField(help_text="The seat's first action, in words.")


class BinSerializer(serializers.Serializer[Any]):
    low = serializers.IntegerField()
    high = serializers.IntegerField(help_text="Inclusive.")
    count = serializers.IntegerField()


class DistributionSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField()
    mean = serializers.FloatField(allow_null=True)
    median = serializers.FloatField(allow_null=True)
    low = serializers.IntegerField(allow_null=True)
    high = serializers.IntegerField(allow_null=True)
    bins = BinSerializer(many=True)


class PlayerCountStatsSerializer(serializers.Serializer[Any]):
    players = serializers.IntegerField()
    matches = serializers.IntegerField()
    digested = serializers.IntegerField(
        help_text="Matches whose replay was read for lengths and openings (in the background)."
    )
    even_rate = serializers.FloatField(help_text="Every seat's win rate if none had an edge.")
    seats = SeatResultsSerializer(many=True)
    first_mover = ResultsSerializer(
        allow_null=True,
        help_text="The seat that moved first in each match, whichever it was (of the "
        "digested matches); null before any is digested.",
    )
    turns = DistributionSerializer(help_text="The matches' lengths in turns.")
    scores = DistributionSerializer(help_text="The seats' final scores.")
    openings = OpeningSerializer(many=True, help_text="The most frequent first actions.")


class GameStatsSerializer(serializers.Serializer[Any]):
    game = serializers.CharField()
    matches = serializers.IntegerField(help_text="Ranked matches counted.")
    window = serializers.IntegerField(help_text="At most this many of the latest are counted.")
    computed = serializers.DateTimeField()
    cache_seconds = serializers.IntegerField(help_text="How long the figures are kept.")
    page_url = serializers.URLField()
    player_counts = PlayerCountStatsSerializer(many=True)


class GameStatsView(APIView):
    permission_classes = (AllowAny,)

    @extend_schema(
        responses={200: GameStatsSerializer, **error_responses(404)},
        summary="A game's statistics",
        description="From the game's finished ranked matches, by player count: win rate "
        "by seat with its interval, lengths and final scores, and the most frequent "
        "opening moves with their results. Made at most every few minutes.",
    )
    def get(self, request: Request, game_id: str) -> Response:
        if game_id not in game_ids():
            raise exceptions.NotFound(f"there is no game {game_id!r}")
        document = dict(game_stats_kept(game_id))
        document["page_url"] = reverse("web:game-stats", args=[game_id], request=request)
        return Response(GameStatsSerializer(document).data)
