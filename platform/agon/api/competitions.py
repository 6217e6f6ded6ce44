"""Competitions: seasons made by staff, each with a ladder of its own, a freeze, a final
and an archive.

GET  /api/competitions/                  every competition, newest first (?phase=)
GET  /api/competitions/{id}/             its settings, dates, ladders, final and countdown
GET  /api/competitions/{id}/standings/   the live ladder, the final's standings, or the archive
GET  /api/competitions/{id}/games/       the final's archived games, once it is over
POST /api/competitions/{id}/entries/     enter your bot while it is upcoming or open
DELETE /api/competitions/{id}/entries/{bot}/  take it out again, until the freeze
GET  /api/bots/{id}/competitions/        a bot's history of competitions
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from agon.api.bots import bot_or_404
from agon.api.common import error_responses, query_values, signed_in_user
from agon.api.pagination import PageNumberPagination, paginate
from agon.competitions.models import ArchivedGame, Competition, CompetitionEntry
from agon.competitions.selectors import (
    archived_games,
    bot_competitions,
    competition_get,
    competition_list,
    competition_standings,
    next_phase,
)
from agon.competitions.services import competition_enter, competition_leave
from competition.formats.registry import UnknownFormat, get_format


class CompetitionFilterSerializer(serializers.Serializer[Any]):
    phase = serializers.ChoiceField(choices=Competition.Phase.choices, required=False)


class CompetitionSerializer(serializers.ModelSerializer[Competition]):
    entrants = serializers.IntegerField(read_only=True, help_text="Bots entered.")

    class Meta:
        model = Competition
        fields: tuple[str, ...] = (
            "id",
            "name",
            "game",
            "player_counts",
            "phase",
            "opens",
            "freezes",
            "final_starts",
            "finished",
            "entrants",
        )
        read_only_fields = fields


class CompetitionLadderSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    players = serializers.IntegerField()
    active = serializers.BooleanField(help_text="Playing ranked matches now.")
    pinned = serializers.BooleanField(help_text="Its entrants' versions are frozen.")


class NextPhaseSerializer(serializers.Serializer[Any]):
    what = serializers.CharField(help_text='What happens next ("submissions freeze").')
    at = serializers.DateTimeField()


class FinalSerializer(serializers.Serializer[Any]):
    format = serializers.CharField(help_text="A registered format (competition.formats).")
    format_label = serializers.CharField()
    size = serializers.IntegerField(help_text="The top N of the ladder who play it.")
    players = serializers.IntegerField(help_text="Bots at each table of the final.")
    meetings = serializers.IntegerField()
    rounds = serializers.IntegerField(allow_null=True)
    tournament = serializers.IntegerField(
        allow_null=True,
        help_text="The final's tournament (/api/tournaments/{id}/), once it starts.",
    )


class CompetitionDetailSerializer(CompetitionSerializer):
    rules = serializers.CharField(help_text="The rules text staff wrote for it.")
    options = serializers.DictField(help_text="The game's options.")
    note = serializers.CharField()
    ladders = CompetitionLadderSerializer(many=True)
    final = FinalSerializer()
    next_phase = NextPhaseSerializer(allow_null=True, help_text="What the countdown counts to.")

    class Meta(CompetitionSerializer.Meta):
        fields: tuple[str, ...] = (
            *CompetitionSerializer.Meta.fields,
            "rules",
            "options",
            "note",
            "ladders",
            "final",
            "next_phase",
        )
        read_only_fields = fields


class StandingRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(
        allow_null=True,
        help_text="The place on the ladder, or in the final once it started (null for an "
        "entrant who did not reach it).",
    )
    bot = serializers.IntegerField()
    bot_name = serializers.CharField()
    owner = serializers.CharField()
    version = serializers.IntegerField(allow_null=True)
    digest = serializers.CharField(help_text="The frozen version's SHA-256 (empty before).")
    rating = serializers.CharField(help_text="On the ladder (at the final's start, after).")
    games = serializers.IntegerField(allow_null=True, help_text="Rated games on the ladder.")
    ladder_place = serializers.IntegerField(allow_null=True)
    points = serializers.FloatField(allow_null=True, help_text="In the final.")
    finalist = serializers.BooleanField()


class StandingsSerializer(serializers.Serializer[Any]):
    phase = serializers.ChoiceField(choices=Competition.Phase.choices)
    stage = serializers.ChoiceField(
        choices=["ladder", "final", "archive"],
        help_text="The live leaderboard, the final's live standings, or the archive "
        "(copied when the final ended: later changes never alter it).",
    )
    rows = StandingRowSerializer(many=True)


class ArchivedGameSerializer(serializers.ModelSerializer[ArchivedGame]):
    class Meta:
        model = ArchivedGame
        fields: tuple[str, ...] = (
            "round",
            "tie",
            "index",
            "seed",
            "seats",
            "ranks",
            "scores",
            "void",
            "forfeited",
            "match_id",
            "rules_version",
        )
        read_only_fields = fields


class CompetitionEntryCreateSerializer(serializers.Serializer[Any]):
    bot = serializers.IntegerField(min_value=1, help_text="Your bot's id.")


class CompetitionEntrySerializer(serializers.ModelSerializer[CompetitionEntry]):
    class Meta:
        model = CompetitionEntry
        fields: tuple[str, ...] = ("id", "competition", "bot", "created")
        read_only_fields = fields


class BotCompetitionSerializer(serializers.Serializer[Any]):
    competition = CompetitionSerializer()
    version = serializers.IntegerField(allow_null=True, help_text="Its frozen version.")
    ladder_place = serializers.IntegerField(allow_null=True)
    finalist = serializers.BooleanField()
    rank = serializers.IntegerField(allow_null=True, help_text="Its place in the final.")


def _competition_or_404(competition_id: int) -> Competition:
    competition = competition_get(competition_id=competition_id)
    if competition is None:
        raise exceptions.NotFound(f"there is no competition {competition_id}")
    return competition


def _format_label(name: str) -> str:
    try:
        return get_format(name).LABEL
    except UnknownFormat:
        return name


def competition_json(competition: Competition) -> dict[str, Any]:
    competition.entrants = competition.entries.count()  # type: ignore[attr-defined]  # as listed
    data: dict[str, Any] = dict(CompetitionSerializer(competition).data)
    coming = next_phase(competition)
    data.update(
        rules=competition.rules,
        options=competition.options,
        note=competition.note,
        ladders=CompetitionLadderSerializer(
            competition.ladders.order_by("players"), many=True
        ).data,
        final=FinalSerializer(
            {
                "format": competition.final_format,
                "format_label": _format_label(competition.final_format),
                "size": competition.final_size,
                "players": competition.final_players,
                "meetings": competition.final_meetings,
                "rounds": competition.final_rounds,
                "tournament": competition.final_id,
            }
        ).data,
        next_phase=NextPhaseSerializer(coming).data if coming else None,
    )
    return data


class CompetitionListView(APIView):
    pagination_class = PageNumberPagination

    @extend_schema(
        parameters=[CompetitionFilterSerializer],
        responses={200: CompetitionSerializer(many=True), **error_responses(400, 404)},
        summary="List the competitions, newest first",
    )
    def get(self, request: Request) -> Response:
        given = CompetitionFilterSerializer(data=query_values(request))
        given.is_valid(raise_exception=True)
        paginator, page = paginate(self, competition_list(phase=given.validated_data.get("phase")))
        return paginator.get_paginated_response(CompetitionSerializer(page, many=True).data)


class CompetitionDetailView(APIView):
    @extend_schema(
        responses={200: CompetitionDetailSerializer, **error_responses(404)},
        summary="A competition: its rules, dates, ladders, final and countdown",
    )
    def get(self, request: Request, competition_id: int) -> Response:
        return Response(competition_json(_competition_or_404(competition_id)))


class CompetitionStandingsView(APIView):
    @extend_schema(
        responses={200: StandingsSerializer, **error_responses(404)},
        summary="A competition's standings: the live ladder, the final, or the archive",
        description="While it is open or frozen, the first 100 of the final's ladder; "
        "during the final, the final's live standings; once it is over, the archive.",
    )
    def get(self, request: Request, competition_id: int) -> Response:
        competition = _competition_or_404(competition_id)
        standings = competition_standings(competition)
        return Response(
            {
                "phase": competition.phase,
                "stage": standings.stage,
                "rows": [asdict(row) for row in standings.rows],
            }
        )


class CompetitionGamesView(APIView):
    pagination_class = PageNumberPagination

    @extend_schema(
        responses={200: ArchivedGameSerializer(many=True), **error_responses(400, 404)},
        summary="The final's games as archived when it ended",
        description="Empty until the competition is finished; the final's games while it "
        "plays are its tournament's (/api/tournaments/{id}/games/).",
    )
    def get(self, request: Request, competition_id: int) -> Response:
        paginator, page = paginate(self, archived_games(_competition_or_404(competition_id)))
        return paginator.get_paginated_response(ArchivedGameSerializer(page, many=True).data)


class CompetitionEntryView(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly,)

    @extend_schema(
        request=CompetitionEntryCreateSerializer,
        responses={201: CompetitionEntrySerializer, **error_responses(400, 401, 403, 404)},
        summary="Enter your bot into a competition while it is upcoming or open",
        description="It is rated on the competition's ladders with its active version, "
        "and each version it validates until the freeze; the one active then is locked.",
    )
    def post(self, request: Request, competition_id: int) -> Response:
        given = CompetitionEntryCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        entry = competition_enter(
            user=signed_in_user(request),
            competition_id=competition_id,
            bot_id=given.validated_data["bot"],
        )
        return Response(CompetitionEntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class CompetitionEntryLeaveView(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        responses={204: None, **error_responses(400, 401, 403, 404)},
        summary="Take your bot out of a competition while it is upcoming or open",
        description="Its entry and its ratings on the competition's ladders go; the "
        "matches it played stay. Refused from the freeze on.",
    )
    def delete(self, request: Request, competition_id: int, bot_id: int) -> Response:
        competition_leave(
            user=signed_in_user(request), competition_id=competition_id, bot_id=bot_id
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class BotCompetitionsView(APIView):
    @extend_schema(
        responses={200: BotCompetitionSerializer(many=True), **error_responses(404)},
        summary="The competitions a bot was entered in, the latest first",
    )
    def get(self, request: Request, bot_id: int) -> Response:
        rows = bot_competitions(bot_id=bot_or_404(bot_id).id)
        return Response(BotCompetitionSerializer(rows, many=True).data)
