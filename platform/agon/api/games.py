"""The games bots can play, from the engine's registry: `GET /api/games/`."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from agon.api.pagination import PageNumberPagination, paginate
from engine.registry import game_ids, get_game


class OptionSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    default = serializers.BooleanField()
    help = serializers.CharField()
    player_counts = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Player counts the option may be switched on for; empty means all.",
    )


class GameSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    name = serializers.CharField()
    player_counts = serializers.ListField(child=serializers.IntegerField())
    options = OptionSerializer(many=True)
    rules_url = serializers.SerializerMethodField(help_text="The game's rules page.")

    def get_rules_url(self, game: Any) -> str:
        return str(reverse("web:rules", args=[game.id], request=self.context.get("request")))


class GameListView(APIView):
    permission_classes = (AllowAny,)
    pagination_class = PageNumberPagination

    @extend_schema(responses=GameSerializer(many=True), summary="List the games")
    def get(self, request: Request) -> Response:
        paginator, page = paginate(self, [get_game(game_id) for game_id in game_ids()])
        games = GameSerializer(page, many=True, context={"request": request})
        return paginator.get_paginated_response(games.data)
