"""Bots and their versions: the public directory, uploads, and downloads for owners.

GET  /api/bots/                                   every bot (?owner=, ?game=)
POST /api/bots/                                   a new bot with its first version
GET  /api/bots/{id}/                              versions and ratings
PATCH /api/bots/{id}/                             rename it; open it to other users' events
DELETE /api/bots/{id}/                            delete it, if nothing else refers to it
POST /api/bots/{id}/retire/                       take it off the ladders (owner or staff)
POST /api/bots/{id}/reactivate/                   bring a retired bot back
GET  /api/bots/{id}/head-to-head/                 its record in ranked games against each opponent
POST /api/bots/{id}/versions/                     a new version (owner only)
GET  /api/bots/{id}/versions/{number}/download/   its archive (owner only)
"""

from __future__ import annotations

from typing import Any

from django.http import FileResponse
from django.utils import timezone
from django.utils.decorators import method_decorator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import exceptions, serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from agon.accounts.names import BOT_NAME_MAX
from agon.api.caching import cached_for_everyone
from agon.api.common import (
    Conflict,
    FileContentNegotiation,
    IsOwner,
    IsOwnerOrStaff,
    api_datetime,
    error_responses,
    query_values,
    refuse_oversized_upload,
    signed_in_user,
)
from agon.api.pagination import PageNumberPagination, paginate
from agon.api.ratings import DEVIATION_HELP, DISPLAY_HELP, PROVISIONAL_HELP, RATING_HELP
from agon.api.throttles import ResumeThrottle, UploadThrottle
from agon.bots.deletion import BotInUse, bot_delete
from agon.bots.models import Bot, BotVersion
from agon.bots.pausing import version_resume
from agon.bots.retirement import bot_reactivate, bot_retire
from agon.bots.selectors import (
    BotDetail,
    BotRow,
    bot_detail,
    bot_get,
    bot_list,
    bot_rows,
    bot_version_of_owner,
)
from agon.bots.services import bot_submit, bot_update, version_submit
from agon.ladders.models import Rating
from agon.matches.selectors import head_to_head
from competition import ratings
from engine.registry import game_ids

UPLOAD_HELP = (
    "A .py file, or a .zip or .tar.gz archive with main.py at the top: at most 5 MiB, "
    "50 MiB unpacked, plain files and folders only."
)


NO_NUL = r"^[^\x00]*$"
"""Text a query may filter by: no database stores a NUL in text, so none can match it
(the schema says so, and such a query is answered 400, not looked up)."""


class BotFilterSerializer(serializers.Serializer[Any]):
    owner = serializers.RegexField(
        NO_NUL, required=False, help_text="The owner's username (any text but NUL)."
    )
    game = serializers.ChoiceField(choices=game_ids(), required=False)


class BotSummarySerializer(serializers.ModelSerializer[Bot]):
    owner = serializers.CharField(source="owner.username", read_only=True)
    active_version = serializers.SerializerMethodField(
        help_text="The number of the version that plays for the bot, if one passed validation."
    )

    open_to_events = serializers.BooleanField(
        read_only=True,
        help_text="Public: its owner lets other users enter it into their private "
        "tournaments and test their versions against it (off by default: then only its "
        "owner enters it anywhere or tests against it).",
    )
    retired = serializers.DateTimeField(
        read_only=True,
        allow_null=True,
        help_text="When its owner retired it: it is off the leaderboards and plays no new "
        "ranked match, tournament or other user's test; its history and ratings are kept. "
        "Null while it plays.",
    )

    class Meta:
        model = Bot
        fields: tuple[str, ...] = (
            "id",
            "name",
            "owner",
            "game",
            "active_version",
            "open_to_events",
            "retired",
            "created",
        )
        read_only_fields = fields

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_active_version(self, bot: Bot) -> int | None:
        # From the selectors' prefetch: a list of at most one version.
        active: list[BotVersion] = getattr(bot, "active_versions", [])
        return active[0].number if active else None


def bots_json(bots: list[BotRow]) -> list[dict[str, Any]]:
    """What BotSummarySerializer gives for each bot, from plain rows."""
    zone = timezone.get_current_timezone()
    return [
        {
            "id": bot.id,
            "name": bot.name,
            "owner": bot.owner,
            "game": bot.game,
            "active_version": bot.active_version,
            "open_to_events": bot.open_to_events,
            "retired": api_datetime(bot.retired, zone) if bot.retired else None,
            "created": api_datetime(bot.created, zone),
        }
        for bot in bots
    ]


class VersionSerializer(serializers.ModelSerializer[BotVersion]):
    reason = serializers.SerializerMethodField(
        help_text="Why the version was rejected; shown to the bot's owner only (else null)."
    )
    paused = serializers.SerializerMethodField(
        help_text="Left out of matchmaking as broken: it faulted in too many of its recent "
        "matches. Its ratings are kept; a new version or POST .../resume/ ends it."
    )
    paused_reason = serializers.SerializerMethodField(
        help_text="Why it is paused; shown to the bot's owner only (else null)."
    )

    class Meta:
        model = BotVersion
        fields: tuple[str, ...] = (
            "number",
            "status",
            "reason",
            "paused",
            "paused_reason",
            "created",
            "sha256",
            "size",
            "filename",
        )
        read_only_fields = fields

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_reason(self, version: BotVersion) -> str | None:
        return version.reason if self.context.get("owner") else None

    @extend_schema_field(serializers.BooleanField())
    def get_paused(self, version: BotVersion) -> bool:
        return bool(version.paused_reason)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_paused_reason(self, version: BotVersion) -> str | None:
        return version.paused_reason if self.context.get("owner") else None


class RatingSerializer(serializers.ModelSerializer[Rating]):
    ladder_name = serializers.CharField(source="ladder.name", read_only=True)
    version = serializers.IntegerField(source="version.number", read_only=True)
    rating = serializers.FloatField(read_only=True, help_text=RATING_HELP)
    deviation = serializers.FloatField(read_only=True, allow_null=True, help_text=DEVIATION_HELP)
    display = serializers.CharField(source="shown", read_only=True, help_text=DISPLAY_HELP)
    provisional = serializers.BooleanField(read_only=True, help_text=PROVISIONAL_HELP)

    class Meta:
        model = Rating
        fields: tuple[str, ...] = (
            "ladder",
            "ladder_name",
            "rating",
            "deviation",
            "display",
            "games",
            "wins",
            "shared_firsts",
            "provisional",
            "active",
            "version",
        )
        read_only_fields = fields


class BotDetailSerializer(BotSummarySerializer):
    versions = serializers.SerializerMethodField()
    ratings = RatingSerializer(many=True, read_only=True)

    class Meta(BotSummarySerializer.Meta):
        fields: tuple[str, ...] = (*BotSummarySerializer.Meta.fields, "versions", "ratings")
        read_only_fields = fields

    @extend_schema_field(VersionSerializer(many=True))
    def get_versions(self, bot: Bot) -> Any:
        request = self.context.get("request")
        owner = request is not None and request.user.id == bot.owner_id
        return VersionSerializer(bot.versions.all(), many=True, context={"owner": owner}).data


def bot_detail_json(bot: BotDetail, *, owner: bool) -> dict[str, Any]:
    """What BotDetailSerializer gives for a bot, written field by field from plain rows
    (`bot_detail`): the serializers' fields, built for every request, and the models of
    `bot_get` cost more than the queries. `owner`: the requester owns it (why a version
    was rejected or paused is theirs alone to read)."""
    zone = timezone.get_current_timezone()
    return {
        "id": bot.id,
        "name": bot.name,
        "owner": bot.owner,
        "game": bot.game,
        "active_version": bot.active_version,
        "open_to_events": bot.open_to_events,
        "retired": api_datetime(bot.retired, zone) if bot.retired else None,
        "created": api_datetime(bot.created, zone),
        "versions": [
            {
                "number": version.number,
                "status": version.status,
                "reason": version.reason if owner else None,
                "paused": bool(version.paused_reason),
                "paused_reason": version.paused_reason if owner else None,
                "created": api_datetime(version.created, zone),
                "sha256": version.sha256,
                "size": version.size,
                "filename": version.filename,
            }
            for version in bot.versions
        ],
        "ratings": [
            {
                "ladder": rating.ladder,
                "ladder_name": rating.ladder_name,
                "rating": float(rating.rating.value),
                "deviation": None
                if rating.rating.deviation is None
                else float(rating.rating.deviation),
                "display": ratings.display(rating.rating),
                "games": rating.games,
                "wins": rating.wins,
                "shared_firsts": rating.shared_firsts,
                "provisional": rating.provisional,
                "active": rating.active,
                "version": rating.version,
            }
            for rating in bot.ratings
        ],
    }


def _detail_json(request: Request, bot_id: int) -> dict[str, Any]:
    bot = bot_detail(bot_id=bot_id)
    if bot is None:
        raise exceptions.NotFound(f"there is no bot {bot_id}")
    return bot_detail_json(bot, owner=request.user.id == bot.owner_id)


class HeadToHeadSerializer(serializers.Serializer[Any]):
    bot = serializers.IntegerField(help_text="The opponent bot's id.")
    name = serializers.CharField(help_text="The opponent bot's name.")
    owner = serializers.CharField(help_text="The opponent's owner's username.")
    wins = serializers.IntegerField(help_text="Ranked matches this bot finished ahead of it.")
    draws = serializers.IntegerField(help_text="Ranked matches the two shared a place in.")
    losses = serializers.IntegerField(help_text="Ranked matches this bot finished behind it.")
    games = serializers.IntegerField(help_text="wins + draws + losses.")
    last_played = serializers.DateTimeField(
        allow_null=True, help_text="When the last of these ranked matches finished."
    )


class BotUpdateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(
        max_length=BOT_NAME_MAX,
        required=False,
        help_text=f"A new name, under the rules of a new bot's: 1 to {BOT_NAME_MAX} characters, "
        "no control character, no @ or /, and not one of your other bots' names or too like one.",
    )
    open_to_events = serializers.BooleanField(
        required=False,
        help_text="Let other users enter the bot into their private tournaments and test "
        "against it (its owner only).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs:
            raise serializers.ValidationError("name or open_to_events: give at least one")
        return attrs


class BotCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=BOT_NAME_MAX)
    game = serializers.CharField(max_length=32, help_text="A game id from /api/games/.")
    file = serializers.FileField(help_text=UPLOAD_HELP)


class VersionCreateSerializer(serializers.Serializer[Any]):
    file = serializers.FileField(help_text=UPLOAD_HELP)


def bot_or_404(bot_id: int) -> Bot:
    bot = bot_get(bot_id=bot_id)
    if bot is None:
        raise exceptions.NotFound(f"there is no bot {bot_id}")
    return bot


@method_decorator(cached_for_everyone, name="dispatch")  # GET only: uploads pass
class BotListView(APIView):
    pagination_class = PageNumberPagination
    parser_classes = (MultiPartParser, FormParser)
    throttle_classes = (UploadThrottle,)  # POST only

    @extend_schema(
        parameters=[BotFilterSerializer],
        responses={200: BotSummarySerializer(many=True), **error_responses(400, 404)},
        summary="List every bot",
    )
    def get(self, request: Request) -> Response:
        given = BotFilterSerializer(data=query_values(request))
        given.is_valid(raise_exception=True)
        paginator, page = paginate(self, bot_list(**given.validated_data))
        return paginator.get_paginated_response(bots_json(bot_rows(page)))

    @extend_schema(
        request={"multipart/form-data": BotCreateSerializer},
        responses={201: BotDetailSerializer, **error_responses(400, 401, 429)},
        summary="Upload a new bot",
        description="The first version is checked at once, then validated by a match "
        "against a builtin bot; it plays on the ladders once it passes. Uploads are rate "
        "limited per user (AGON_UPLOAD_RATE).",
    )
    def post(self, request: Request) -> Response:
        refuse_oversized_upload(request)
        given = BotCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        bot = bot_submit(
            owner=signed_in_user(request),
            name=given.validated_data["name"],
            game=given.validated_data["game"],
            upload=given.validated_data["file"],
        )
        return Response(_detail_json(request, bot.id), status=status.HTTP_201_CREATED)


class BotDetailView(APIView):
    @extend_schema(
        responses={200: BotDetailSerializer, **error_responses(404)},
        summary="A bot, its versions and its ratings",
    )
    def get(self, request: Request, bot_id: int) -> Response:
        return Response(_detail_json(request, bot_id))

    @extend_schema(
        request=BotUpdateSerializer,
        responses={200: BotDetailSerializer, **error_responses(400, 401, 403, 404)},
        summary="Rename your bot, or open it to other users' events",
        description="A new name follows the rules of a new bot's (400 saying why not); "
        "matches already played keep the name in their replays. Open to events, other users "
        "may enter the bot into their private tournaments and test their versions against "
        "it at once; closed (the default), only you do. Entries made already stay until you "
        "withdraw them (GET .../entries/ lists them). Staff may rename any bot; only its "
        "owner opens it.",
    )
    def patch(self, request: Request, bot_id: int) -> Response:
        bot = self._managed(request, bot_id)
        given = BotUpdateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        if "open_to_events" in given.validated_data and bot.owner_id != request.user.id:
            raise exceptions.PermissionDenied(
                "only its owner opens a bot to other users' events, or closes it"
            )
        bot_update(bot=bot, **given.validated_data)
        return Response(_detail_json(request, bot_id))

    @extend_schema(
        request=None,
        responses={204: None, **error_responses(401, 403, 404, 409)},
        summary="Delete your bot",
        description="Its versions, their code, and its own matches (validation, your "
        "challenges and version tests among your bots) go with it, for good. A bot that "
        "played ranked matches, took part in a tournament, met another user's bot or is "
        "another user's version-test baseline is referred to by their histories: 409, "
        "retire it instead (POST .../retire/). 409 too while one of its matches is being "
        "played: delete it once the match is over.",
    )
    def delete(self, request: Request, bot_id: int) -> Response:
        bot = self._managed(request, bot_id)
        try:
            bot_delete(bot=bot)
        except BotInUse as refused:
            detail = refused.refusal.reason
            if refused.refusal.retire_instead:
                detail += f" (POST /api/bots/{bot_id}/retire/)"
            raise Conflict(detail) from None
        return Response(status=status.HTTP_204_NO_CONTENT)

    def _managed(self, request: Request, bot_id: int) -> Bot:
        """The bot, if the signed-in user may change it (its owner, or staff)."""
        bot = bot_or_404(bot_id)
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        if not IsOwnerOrStaff().has_object_permission(request, self, bot):
            raise exceptions.PermissionDenied(IsOwner.message)
        return bot


class RetireView(APIView):
    permission_classes = (IsAuthenticated, IsOwnerOrStaff)

    @extend_schema(
        request=None,
        responses={200: BotDetailSerializer, **error_responses(401, 403, 404)},
        summary="Retire your bot from the ladders",
        description="It leaves every leaderboard and plays no new ranked match: its "
        "queued ranked matches are not played (one being played finishes and counts). It "
        "enters no tournament, drops out of those whose entry closes while it is retired, "
        "and other users can neither challenge it nor test against it; you still may. Its "
        "matches, replays and ratings are kept; a new version keeps it retired. Retiring a "
        "retired bot changes nothing. POST .../reactivate/ brings it back.",
    )
    def post(self, request: Request, bot_id: int) -> Response:
        bot = bot_or_404(bot_id)
        self.check_object_permissions(request, bot)
        bot_retire(bot=bot)
        return Response(_detail_json(request, bot_id))


class ReactivateView(APIView):
    permission_classes = (IsAuthenticated, IsOwnerOrStaff)

    @extend_schema(
        request=None,
        responses={200: BotDetailSerializer, **error_responses(401, 403, 404)},
        summary="Bring your retired bot back",
        description="It is back on its game's leaderboards on the ratings it had (less "
        "certain for the time it was idle) and plays ranked matches again.",
    )
    def post(self, request: Request, bot_id: int) -> Response:
        bot = bot_or_404(bot_id)
        self.check_object_permissions(request, bot)
        bot_reactivate(bot=bot)
        return Response(_detail_json(request, bot_id))


class HeadToHeadView(APIView):
    pagination_class = PageNumberPagination

    @extend_schema(
        responses={200: HeadToHeadSerializer(many=True), **error_responses(400, 404)},
        summary="A bot's record in ranked games against each opponent",
        description="Over the bot's finished ranked matches only (challenges, tournaments "
        "and version tests are left out: their opponents were chosen by a user), per "
        "opponent bot (the most played first): wins, draws and losses between the two. In "
        "a match of more than two players each other bot counts once: finishing ahead of "
        "it is a win, a shared place a draw.",
    )
    def get(self, request: Request, bot_id: int) -> Response:
        bot = bot_or_404(bot_id)
        paginator, page = paginate(self, head_to_head(bot=bot))
        return paginator.get_paginated_response(HeadToHeadSerializer(page, many=True).data)


class VersionListView(APIView):
    permission_classes = (IsAuthenticated, IsOwner)
    parser_classes = (MultiPartParser, FormParser)
    throttle_classes = (UploadThrottle,)

    @extend_schema(
        request={"multipart/form-data": VersionCreateSerializer},
        responses={201: VersionSerializer, **error_responses(400, 401, 403, 404, 429)},
        summary="Upload a new version of your bot",
        description="Rate limited per user, with new bots (AGON_UPLOAD_RATE).",
    )
    def post(self, request: Request, bot_id: int) -> Response:
        bot = bot_or_404(bot_id)
        self.check_object_permissions(request, bot)
        refuse_oversized_upload(request)
        given = VersionCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        version = version_submit(bot=bot, upload=given.validated_data["file"])
        data = VersionSerializer(version, context={"owner": True}).data
        return Response(data, status=status.HTTP_201_CREATED)


class ResumeView(APIView):
    permission_classes = (IsAuthenticated, IsOwner)
    throttle_classes = (ResumeThrottle,)

    @extend_schema(
        request=None,
        responses={200: VersionSerializer, **error_responses(401, 403, 404, 429)},
        summary="Resume your bot's paused version",
        description="Its active version, paused from matchmaking for faulting too often, "
        "plays ranked matches again; its faults are judged afresh from now. Resuming a "
        "version that is not paused changes nothing. Rate limited per user "
        "(AGON_RESUME_RATE).",
    )
    def post(self, request: Request, bot_id: int) -> Response:
        bot = bot_or_404(bot_id)
        self.check_object_permissions(request, bot)
        version = bot.active_version()
        if version is None:
            raise exceptions.NotFound(f"the bot {bot_id} has no active version to resume")
        version = version_resume(version=version)
        return Response(VersionSerializer(version, context={"owner": True}).data)


class VersionDownloadView(APIView):
    permission_classes = (IsAuthenticated,)
    content_negotiation_class = FileContentNegotiation

    @extend_schema(
        responses={
            (200, "application/octet-stream"): OpenApiResponse(
                OpenApiTypes.BINARY, description="The archive as uploaded."
            ),
            **error_responses(401, 404),
        },
        summary="Download a version of your bot",
        description="Only the bot's owner may; for anybody else the version does not exist.",
    )
    def get(self, request: Request, bot_id: int, number: int) -> FileResponse:
        version = bot_version_of_owner(owner=signed_in_user(request), bot_id=bot_id, number=number)
        if version is None:
            raise exceptions.NotFound(f"you have no bot {bot_id} with a version {number}")
        if version.builtin:
            raise exceptions.NotFound(f"version {number} is builtin:{version.builtin}: no archive")
        return FileResponse(
            version.archive.open("rb"), as_attachment=True, filename=version.filename
        )
