"""Matches, replays and logs.

GET /api/matches/                     newest first (?bot=, ?ladder=, ?status=, ?game=)
GET /api/matches/{id}/                with scores, ranks and faults
GET /api/matches/{id}/replay/         the stored replay JSON, once finished
GET /api/matches/{id}/timeline/       step by step for replay viewers (?since=N), live too
GET /api/matches/{id}/logs/{seat}/    a seat's log, for its bot's owner only
"""

from __future__ import annotations

import base64
import contextlib
import json
from collections.abc import Iterable
from typing import Any, cast

from django.core.paginator import Page
from django.http import FileResponse, HttpResponse, HttpResponseBase
from django.utils import timezone
from django.utils.decorators import method_decorator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import exceptions, serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from agon.analysis.evaluations import turn_evaluations
from agon.api.caching import cached_when_anonymous
from agon.api.common import (
    FileContentNegotiation,
    api_datetime,
    error_responses,
    query_values,
    signed_in_user,
)
from agon.api.pagination import PageNumberPagination, paginate
from agon.api.throttles import TimelineThrottle
from agon.matches.listed import json_text, listed_match_json, listed_texts, seat_json
from agon.matches.models import Match
from agon.matches.selectors import (
    ListedMatch,
    MatchListing,
    SeatShown,
    match_get,
    match_seat,
    match_seats,
    seat_owned_by,
)
from agon.matches.timeline import finished_timeline_json, match_timeline
from engine.registry import game_ids
from engine.replay import ReplayError


class MatchFilterSerializer(serializers.Serializer[Any]):
    bot = serializers.IntegerField(required=False, help_text="Matches this bot played in.")
    ladder = serializers.IntegerField(required=False)
    status = serializers.ChoiceField(choices=Match.Status.choices, required=False)
    game = serializers.ChoiceField(choices=game_ids(), required=False)


# A seat, from `match_seats` (plain rows: a few hundred on a page of matches).
class SeatSerializer(serializers.Serializer[SeatShown]):
    seat = serializers.IntegerField(read_only=True)
    bot = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="Null for a builtin or a human."
    )
    version = serializers.IntegerField(read_only=True, allow_null=True)
    bot_label = serializers.CharField(
        read_only=True,
        help_text="`owner/name@vN` for an uploaded bot, `builtin:name` for a builtin one, "
        "`human:username` for a human game's player.",
    )
    rank = serializers.IntegerField(read_only=True, allow_null=True)
    score = serializers.IntegerField(read_only=True, allow_null=True)
    fault = serializers.CharField(read_only=True)

    def to_representation(self, seat: SeatShown) -> dict[str, Any]:
        return seat_json(seat)


# A match with its seats. Lists write the same JSON with `listed_matches_json`.
class MatchSerializer(serializers.ModelSerializer[Match]):
    seats = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields: tuple[str, ...] = (
            "id",
            "kind",
            "ladder",
            "game",
            "players",
            "status",
            "created",
            "finished",
            "seats",
        )
        read_only_fields = fields

    @extend_schema_field(SeatSerializer(many=True, read_only=True))
    def get_seats(self, match: Match) -> list[dict[str, Any]]:
        return [seat_json(seat) for seat in match_seats([match.id])[match.id]]


def listed_matches_json(matches: Iterable[ListedMatch]) -> list[dict[str, Any]]:
    """What MatchSerializer gives for each match, from rows of `MatchListing`."""
    zone = timezone.get_current_timezone()
    return [listed_match_json(match, zone) for match in matches]


class MatchDetailSerializer(MatchSerializer):
    scores = serializers.ListField(child=serializers.IntegerField(), read_only=True)
    ranks = serializers.ListField(child=serializers.IntegerField(), read_only=True)
    faults = serializers.ListField(
        child=serializers.DictField(),
        read_only=True,
        help_text="What the referee recorded against each faulting seat (kind, turn, detail).",
    )

    class Meta(MatchSerializer.Meta):
        fields: tuple[str, ...] = (
            *MatchSerializer.Meta.fields,
            "options",
            "started",
            "scores",
            "ranks",
            "faults",
            "match_seconds",
        )
        read_only_fields = fields


def match_detail_json(match: Match) -> dict[str, Any]:
    """What MatchDetailSerializer gives, written field by field (building the
    serializer's fields cost more than the match's two queries)."""
    zone = timezone.get_current_timezone()
    return {
        "id": match.id,
        "kind": match.kind,
        "ladder": match.ladder_id,
        "game": match.game,
        "players": match.players,
        "status": match.status,
        "created": api_datetime(match.created, zone),
        "finished": api_datetime(match.finished, zone) if match.finished else None,
        "seats": [seat_json(seat) for seat in match_seats([match.id])[match.id]],
        "options": match.options,
        "started": api_datetime(match.started, zone) if match.started else None,
        "scores": [int(score) for score in match.scores],
        "ranks": [int(rank) for rank in match.ranks],
        "faults": [dict(fault) for fault in match.faults],
        "match_seconds": None if match.match_seconds is None else float(match.match_seconds),
    }


class TimelineQuerySerializer(serializers.Serializer[Any]):
    since = serializers.IntegerField(
        required=False, min_value=0, default=0, help_text="The first step wanted."
    )
    seat = serializers.IntegerField(
        required=False,
        min_value=0,
        help_text="For a finished match only: each step also carries `observation_patch`, "
        "what this seat was shown (the game's observation, as its bot got it), a patch of "
        "the step before's like `view_patch`.",
    )


class SeatLogSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    log = serializers.CharField(
        allow_blank=True,
        help_text="What the bot wrote on stderr, to read: UTF-8, with any other byte and "
        "every control character but tab and line break written as \\xNN, and a note of "
        "what was dropped past the limit.",
    )
    log_base64 = serializers.CharField(
        allow_blank=True, help_text="What the bot wrote on stderr, byte for byte (base64)."
    )
    log_dropped_bytes = serializers.IntegerField(
        help_text="How many more bytes it wrote than the log keeps."
    )
    turn_logs = serializers.ListField(
        child=serializers.CharField(allow_blank=True),
        help_text="What it wrote during each of its turns, in the order it played them, "
        "written as `log` is (the replay viewer shows each beside its step); what it "
        "wrote while starting is its first turn's.",
    )
    evaluations = serializers.ListField(
        child=serializers.FloatField(allow_null=True),
        help_text="Its own evaluation of each turn, from the turn's last `agon-eval V` line "
        "(V from 0 to 1: its chance to win; docs/bot-protocol.md), null where it wrote "
        "none; the replay viewer draws them beside the analysis's curve, for you only.",
    )


def listed_page_response(
    request: Request, paginator: PageNumberPagination, parts: list[str]
) -> HttpResponseBase:
    """The paginated page of these matches' JSON, as DRF's renderer would write it, joined
    as it is (a browsable page, or JSON asked for indented, as a Response)."""
    page = cast("Page[Any]", paginator.page)  # paginated: a page past the end was a 404
    head = {
        "count": page.paginator.count,
        "next": paginator.get_next_link(),
        "previous": paginator.get_previous_link(),
    }
    renderer = request.accepted_renderer
    if not isinstance(renderer, JSONRenderer) or "indent" in request.accepted_media_type:
        return Response({**head, "results": [json.loads(part) for part in parts]})
    content = json_text(head)[:-1] + ',"results":[' + ",".join(parts) + "]}"
    return HttpResponse(content.encode(), content_type=renderer.media_type)


def _match_or_404(request: Request, match_id: int) -> Match:
    """The match if the requester may see it (a private event's only its audience:
    agon.matches.visibility); to anybody else it does not exist."""
    match = match_get(match_id=match_id, viewer=request.user)
    if match is None:
        raise exceptions.NotFound(f"there is no match {match_id}")
    return match


@method_decorator(cached_when_anonymous, name="dispatch")
class MatchListView(APIView):
    pagination_class = PageNumberPagination

    @extend_schema(
        parameters=[MatchFilterSerializer],
        responses={200: MatchSerializer(many=True), **error_responses(400, 404)},
        summary="List matches, newest first",
        description="The public matches, and for a signed-in user also the private ones "
        "they may see: their private tournaments' games (as owner or entrant) and their "
        "version tests' games. Lists asked for anonymously are kept in the shared cache "
        "for AGON_LIST_CACHE_SECONDS.",
    )
    def get(self, request: Request) -> HttpResponseBase:
        given = MatchFilterSerializer(data=query_values(request))
        given.is_valid(raise_exception=True)
        filters = given.validated_data
        matches = MatchListing(
            viewer=request.user,
            bot_id=filters.get("bot"),
            ladder_id=filters.get("ladder"),
            status=filters.get("status"),
            game=filters.get("game"),
            seats=False,
        )
        paginator, page = paginate(self, matches)
        return listed_page_response(request, paginator, listed_texts(page))


class MatchDetailView(APIView):
    @extend_schema(responses={200: MatchDetailSerializer, **error_responses(404)})
    def get(self, request: Request, match_id: int) -> Response:
        return Response(match_detail_json(_match_or_404(request, match_id)))


class ReplayView(APIView):
    content_negotiation_class = FileContentNegotiation

    @extend_schema(
        responses={
            (200, "application/json"): OpenApiResponse(
                OpenApiTypes.OBJECT,
                description="The replay as stored: a header (game, engine version, seed, "
                "players, options, bots), the actions, the faults and the result.",
            ),
            **error_responses(404),
        },
        summary="A finished match's replay",
    )
    def get(self, request: Request, match_id: int) -> FileResponse:
        match = _match_or_404(request, match_id)
        if match.status != Match.Status.FINISHED or not match.replay:
            raise exceptions.NotFound(
                f"match {match_id} is {match.status}: its replay exists once it has finished"
            )
        return FileResponse(match.replay.open("rb"), content_type="application/json")


class TimelineView(APIView):
    throttle_classes = (TimelineThrottle,)

    @extend_schema(
        parameters=[TimelineQuerySerializer],
        responses={
            200: OpenApiResponse(
                OpenApiTypes.OBJECT,
                description="The match re-run through the engine: each step's public view "
                "(as a patch of the step before), the action in words, who took it and the "
                "faults at that turn. A running match gives its moves so far; a finished one "
                "also shows what was hidden (hands, face-down tiles). The format is described "
                "in agon/matches/timeline.py.",
            ),
            **error_responses(400, 404, 429),
        },
        summary="A match step by step, for replay viewers",
        description="Rate limited per user, or per client address when signed out "
        "(AGON_TIMELINE_RATE).",
    )
    def get(self, request: Request, match_id: int) -> HttpResponseBase:
        match = _match_or_404(request, match_id)
        query = TimelineQuerySerializer(data=query_values(request))
        query.is_valid(raise_exception=True)
        seat = query.validated_data.get("seat")
        if seat is not None:
            if seat >= match.players:
                raise exceptions.ValidationError({"seat": f"match {match_id} has no seat {seat}"})
            if match.status != Match.Status.FINISHED:
                raise exceptions.PermissionDenied(
                    "what a seat was shown stays hidden until the match has finished"
                )
        since = query.validated_data["since"]
        if (
            seat is None
            and match.status == Match.Status.FINISHED
            and match.replay
            and isinstance(request.accepted_renderer, JSONRenderer)
        ):
            with contextlib.suppress(ReplayError):  # the document says what went wrong
                content = finished_timeline_json(match, since=since)
                return HttpResponse(content, content_type=request.accepted_renderer.media_type)
        return Response(match_timeline(match, since=since, seat=seat))


class SeatLogView(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        responses={200: SeatLogSerializer, **error_responses(401, 403, 404)},
        summary="What your bot wrote on stderr in a match",
    )
    def get(self, request: Request, match_id: int, seat: int) -> Response:
        found = match_seat(match_id=match_id, seat=seat, viewer=request.user)
        if found is None:
            raise exceptions.NotFound(f"match {match_id} has no seat {seat}")
        if not seat_owned_by(found, signed_in_user(request)):
            raise exceptions.PermissionDenied("only the owner of a seat's bot may read its log")
        turns = found.turn_logs
        shown = {
            "seat": found.seat,
            "log": found.log_text,
            "log_base64": base64.b64encode(bytes(found.log)).decode(),
            "log_dropped_bytes": found.log_dropped_bytes,
            "turn_logs": turns,
            "evaluations": turn_evaluations(turns),
        }
        return Response(SeatLogSerializer(shown).data)
