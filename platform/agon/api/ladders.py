"""Ladders and their leaderboards: `GET /api/ladders/`, `GET /api/ladders/{id}/leaderboard/`."""

from __future__ import annotations

from typing import Any

from django.utils.decorators import method_decorator
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from agon.api.caching import cached_for_everyone
from agon.api.common import error_responses
from agon.api.pagination import PageNumberPagination, paginate
from agon.api.ratings import (
    DEVIATION_HELP,
    DISPLAY_HELP,
    PROVISIONAL_HELP,
    RANK_HELP,
    RATING_HELP,
    SHARED_FIRSTS_HELP,
    WINS_HELP,
    rating_fields,
)
from agon.ladders.models import Ladder
from agon.ladders.selectors import LeaderboardListing, Standing, ladder_exists, ladder_list


class LadderSerializer(serializers.ModelSerializer[Ladder]):
    bots = serializers.IntegerField(read_only=True, help_text="Bots rated on the ladder.")

    class Meta:
        model = Ladder
        fields: tuple[str, ...] = ("id", "name", "game", "players", "options", "active", "bots")
        read_only_fields = fields


# A row of a leaderboard, from `LeaderboardListing`.
class LeaderboardRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text=RANK_HELP)
    bot = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.CharField()
    version = serializers.IntegerField()
    rating = serializers.FloatField(help_text=RATING_HELP)
    deviation = serializers.FloatField(allow_null=True, help_text=DEVIATION_HELP)
    display = serializers.CharField(help_text=DISPLAY_HELP)
    games = serializers.IntegerField()
    wins = serializers.IntegerField(help_text=WINS_HELP)
    shared_firsts = serializers.IntegerField(help_text=SHARED_FIRSTS_HELP)
    provisional = serializers.BooleanField(help_text=PROVISIONAL_HELP)

    def to_representation(self, row: Standing) -> dict[str, Any]:
        # What DRF gives, without its walk through every field of every row.
        return {
            "rank": row.rank,
            "bot": row.bot,
            "name": row.name,
            "owner": row.owner,
            "version": row.version,
            **rating_fields(row.rating),
            "games": row.games,
            "wins": row.wins,
            "shared_firsts": row.shared_firsts,
            "provisional": row.provisional,
        }


@method_decorator(cached_for_everyone, name="dispatch")
class LadderListView(APIView):
    pagination_class = PageNumberPagination

    @extend_schema(responses={200: LadderSerializer(many=True), **error_responses(404)})
    def get(self, request: Request) -> Response:
        paginator, page = paginate(self, ladder_list())
        return paginator.get_paginated_response(LadderSerializer(page, many=True).data)


@method_decorator(cached_for_everyone, name="dispatch")
class LeaderboardView(APIView):
    pagination_class = PageNumberPagination

    @extend_schema(
        responses={200: LeaderboardRowSerializer(many=True), **error_responses(404)},
        summary="A ladder's bots by rating, best first",
    )
    def get(self, request: Request, ladder_id: int) -> Response:
        if not ladder_exists(ladder_id=ladder_id):
            raise exceptions.NotFound(f"there is no ladder {ladder_id}")
        paginator, page = paginate(self, LeaderboardListing(ladder_id=ladder_id))
        return paginator.get_paginated_response(LeaderboardRowSerializer(page, many=True).data)
