"""Tournaments: made by staff (public) or by any user (private), entered during their
window, then played round by round.

GET  /api/tournaments/                 the public ones, your own and those your bots are in
POST /api/tournaments/                 a new tournament
GET  /api/tournaments/{id}/            entrants, standings, progress, its games' URL
GET  /api/tournaments/{id}/games/      its games, paged (?round=)
POST /api/tournaments/{id}/entries/    enter a bot while the entry is open
DELETE /api/tournaments/{id}/entries/{entry_id}/   withdraw it (forfeits if it runs)
POST /api/tournaments/{id}/cancel/     cancel it (its owner if private, or staff)
GET  /api/bots/{id}/entries/           the tournaments a bot is entered in (that you see)
"""

from __future__ import annotations

from typing import Any, cast

from django.http import HttpResponseBase
from django.utils import timezone
from django.utils.decorators import method_decorator
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from agon.api.bots import bot_or_404
from agon.api.caching import cached_when_anonymous, kept_json
from agon.api.common import api_datetime, error_responses, query_values, signed_in_user
from agon.api.pagination import PageNumberPagination, paginate
from agon.tournaments.cancellation import tournament_cancel
from agon.tournaments.kept import shown_key
from agon.tournaments.models import Entry, Tournament
from agon.tournaments.selectors import (
    GAME_STATUSES,
    EntryRow,
    GameRow,
    TournamentShown,
    bot_entries,
    entry_rows,
    game_rows,
    tournament_games,
    tournament_get,
    tournament_list,
    tournament_shown,
)
from agon.tournaments.services import (
    MAX_MEETINGS,
    MAX_ROUNDS,
    entry_create,
    entry_withdraw,
    tournament_create,
)
from competition.formats.registry import format_choices
from engine.registry import game_ids


def _user_or_none(request: Request) -> Any:
    return request.user if request.user.is_authenticated else None


class TournamentFilterSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=Tournament.Status.choices, required=False)


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    owner = serializers.CharField(source="owner.username", read_only=True)

    class Meta:
        model = Tournament
        fields: tuple[str, ...] = (
            "id",
            "name",
            "game",
            "format",
            "players",
            "rounds",
            "meetings",
            "options",
            "public",
            "owner",
            "max_entrants",
            "entry_opens",
            "entry_closes",
            "status",
            "created",
            "started",
            "finished",
            "note",
        )
        read_only_fields = fields


class TournamentCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=100)
    game = serializers.ChoiceField(choices=game_ids())
    format = serializers.ChoiceField(
        choices=[], help_text="A registered format (competition.formats.registry)."
    )
    players = serializers.IntegerField(
        default=2, min_value=2, max_value=6, help_text="Bots at each table."
    )
    rounds = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_ROUNDS,
        help_text="A Swiss's rounds (by default: log2 of the field, plus one).",
    )
    meetings = serializers.IntegerField(
        default=1,
        min_value=1,
        max_value=MAX_MEETINGS,
        help_text="Meetings each table plays; a meeting is one game per rotation of the "
        "seats (two players: a pair of games, seats swapped), each game dealt afresh.",
    )
    options = serializers.DictField(
        child=serializers.BooleanField(), required=False, help_text="The game's options."
    )
    max_entrants = serializers.IntegerField(default=32, min_value=2, max_value=65535)
    public = serializers.BooleanField(
        default=False, help_text="Staff only: listed for all, entered by anyone."
    )
    entry_opens = serializers.DateTimeField(required=False, help_text="Now if not given.")
    entry_closes = serializers.DateTimeField(
        help_text="When the entrants' active versions are frozen and the first round starts."
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The registry's formats as they are now, not as they were when this was imported.
        cast(serializers.ChoiceField, self.fields["format"]).choices = format_choices()


class EntrySerializer(serializers.ModelSerializer[Entry]):
    bot_name = serializers.CharField(source="bot.name", read_only=True)
    owner = serializers.CharField(source="bot.owner.username", read_only=True)
    version = serializers.SerializerMethodField(
        help_text="The version that plays, frozen when the entry closed (null before)."
    )
    entrant = serializers.IntegerField(
        source="number",
        read_only=True,
        allow_null=True,
        help_text="Its number in the draw, 0 the first seed; null before the entry closes "
        "and for a bot dropped then (no active version).",
    )

    withdrawn = serializers.DateTimeField(
        read_only=True,
        allow_null=True,
        help_text="When its bot withdrew from the running tournament (it forfeits every "
        "game it had left); null while it plays.",
    )

    class Meta:
        model = Entry
        fields: tuple[str, ...] = (
            "id",
            "bot",
            "bot_name",
            "owner",
            "version",
            "entrant",
            "created",
            "withdrawn",
        )
        read_only_fields = fields

    def get_version(self, entry: Entry) -> int | None:
        return entry.version.number if entry.version is not None else None


class EntryCreateSerializer(serializers.Serializer[Any]):
    bot = serializers.IntegerField(
        min_value=1,
        help_text="Your bot's id (a public tournament); into your private one also another "
        "user's bot open to events (`open_to_events`).",
    )


class BotEntrySerializer(EntrySerializer):
    tournament = TournamentSerializer(read_only=True)

    class Meta(EntrySerializer.Meta):
        fields: tuple[str, ...] = (*EntrySerializer.Meta.fields, "tournament")
        read_only_fields = fields


class StandingSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    entrant = serializers.IntegerField()
    bot = serializers.IntegerField()
    version = serializers.CharField(help_text="owner/bot@vN")
    points = serializers.FloatField()
    tiebreaks = serializers.DictField(
        child=serializers.FloatField(),
        help_text="The format's tie-breaks, in the order they apply (Buchholz, "
        "Sonneborn-Berger, direct encounter, wins...).",
    )


class TournamentSeatSerializer(serializers.Serializer[Any]):
    entrant = serializers.IntegerField()
    bot = serializers.IntegerField()
    version = serializers.CharField()


class TournamentGameSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    tie = serializers.CharField(help_text='A table ("0-5"), a knockout tie ("W2.1"), a bye.')
    index = serializers.IntegerField()
    seats = TournamentSeatSerializer(many=True)
    status = serializers.ChoiceField(
        choices=GAME_STATUSES,
        help_text="A void game's matches kept failing: it counts as a tie.",
    )
    ranks = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    match = serializers.IntegerField(allow_null=True)
    replay = serializers.URLField(allow_null=True, help_text="The finished match's replay.")
    replays = serializers.IntegerField(help_text="Failed matches replaced by a new one.")
    attempts = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The ids of the failed matches replaced by a replay, oldest first.",
    )


class TournamentGameFilterSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField(required=False, min_value=1, help_text="One round's games.")


class ProgressSerializer(serializers.Serializer[Any]):
    games = serializers.IntegerField(help_text="Games queued so far (byes left out).")
    decided = serializers.IntegerField()
    round = serializers.IntegerField(help_text="The latest round with a game (0: none yet).")
    rounds = serializers.IntegerField(
        allow_null=True, help_text="The rounds there will be, when the format fixes them."
    )


class TournamentDetailSerializer(TournamentSerializer):
    entries = EntrySerializer(many=True, read_only=True)
    standings = StandingSerializer(
        many=True,
        read_only=True,
        help_text="Best first; live while it runs, final once finished.",
    )
    progress = ProgressSerializer(read_only=True)
    games = serializers.URLField(
        read_only=True, help_text="Its games, paged: /api/tournaments/{id}/games/."
    )

    class Meta(TournamentSerializer.Meta):
        fields: tuple[str, ...] = (
            *TournamentSerializer.Meta.fields,
            "entries",
            "standings",
            "progress",
            "games",
        )
        read_only_fields = fields


def tournament_json(shown: TournamentShown, request: Request) -> dict[str, Any]:
    data: dict[str, Any] = dict(TournamentSerializer(shown.tournament).data)
    data["entries"] = entries_json(shown.entrants)
    data["standings"] = shown.standings
    data["progress"] = ProgressSerializer(shown.progress).data
    data["games"] = reverse("tournament-games", args=[shown.tournament.id], request=request)
    return data


def entries_json(entries: list[EntryRow]) -> list[dict[str, Any]]:
    """What EntrySerializer gives for each entry, from plain rows."""
    zone = timezone.get_current_timezone()
    return [
        {
            "id": entry.id,
            "bot": entry.bot,
            "bot_name": entry.bot_name,
            "owner": entry.owner,
            "version": entry.version,
            "entrant": entry.entrant,
            "created": api_datetime(entry.created, zone),
            "withdrawn": api_datetime(entry.withdrawn, zone) if entry.withdrawn else None,
        }
        for entry in entries
    ]


def games_json(games: list[GameRow], entrants: list[EntryRow], request: Request) -> list[Any]:
    """What TournamentGameSerializer gives for each game, from plain rows; `entrants`
    holds at least those the games seat."""
    by_number = {entry.entrant: entry for entry in entrants}
    # One link made by the router, the others from it: a reverse costs 20 us a game.
    head, _, tail = reverse("match-replay", args=[0], request=request).rpartition("/0/")
    return [
        {
            "round": game.round,
            "tie": game.tie,
            "index": game.index,
            "seats": [
                {
                    "entrant": number,
                    "bot": by_number[number].bot,
                    "version": by_number[number].label,
                }
                for number in game.bots
            ],
            "status": game.status,
            "ranks": game.ranks,
            "match": game.match,
            "replay": f"{head}/{game.match}/{tail}" if game.replay_shown else None,
            "replays": game.replays,
            "attempts": game.attempts,
        }
        for game in games
    ]


def _tournament_or_404(request: Request, tournament_id: int) -> Tournament:
    tournament = tournament_get(
        tournament_id=tournament_id, user=_user_or_none(request), standings=False
    )
    if tournament is None:
        raise exceptions.NotFound(f"there is no tournament {tournament_id}")
    return tournament


@method_decorator(cached_when_anonymous, name="dispatch")  # GET only: a new one passes
class TournamentListView(APIView):
    pagination_class = PageNumberPagination
    permission_classes = (IsAuthenticatedOrReadOnly,)

    @extend_schema(
        parameters=[TournamentFilterSerializer],
        responses={200: TournamentSerializer(many=True), **error_responses(400, 404)},
        summary="List the public tournaments, your own and those your bots are entered in",
    )
    def get(self, request: Request) -> Response:
        given = TournamentFilterSerializer(data=query_values(request))
        given.is_valid(raise_exception=True)
        tournaments = tournament_list(
            user=_user_or_none(request), status=given.validated_data.get("status")
        )
        paginator, page = paginate(self, tournaments)
        return paginator.get_paginated_response(TournamentSerializer(page, many=True).data)

    @extend_schema(
        request=TournamentCreateSerializer,
        responses={201: TournamentDetailSerializer, **error_responses(400, 401, 403)},
        summary="Make a tournament",
        description="Staff make public tournaments; anyone makes private ones, at most "
        "AGON_PRIVATE_TOURNAMENTS_PER_USER not finished at a time and at most "
        "AGON_TOURNAMENT_MAX_GAMES games with a full field. Its games are matches of the "
        "kind `tournament`: they move no rating.",
    )
    def post(self, request: Request) -> Response:
        given = TournamentCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        tournament = tournament_create(owner=signed_in_user(request), **given.validated_data)
        data = tournament_json(tournament_shown(tournament), request)
        return Response(data, status=status.HTTP_201_CREATED)


# Anonymous requests see public tournaments only, all the same: their pages are kept for
# AGON_LIST_CACHE_SECONDS before DRF is reached (a running one's show a change that much
# later). Signed-in users' are made per state of the tournament (`kept_json`).
@method_decorator(cached_when_anonymous, name="dispatch")
class TournamentDetailView(APIView):
    @extend_schema(
        responses={200: TournamentDetailSerializer, **error_responses(404)},
        summary="A tournament: entrants, standings, progress and its games' URL",
        description="Bounded whatever the tournament's size: its games are paged apart "
        "(`games`). Asked for anonymously, it is kept in the shared cache for "
        "AGON_LIST_CACHE_SECONDS.",
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponseBase:
        tournament = _tournament_or_404(request, tournament_id)
        return kept_json(
            request,
            shown_key(tournament),
            lambda: tournament_json(tournament_shown(tournament), request),
        )


class EntryListView(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly,)

    @extend_schema(
        request=EntryCreateSerializer,
        responses={201: EntrySerializer, **error_responses(400, 401, 403, 404)},
        summary="Enter a bot into a tournament while its entry is open",
        description="Into a public tournament, your own bots; into your private one, "
        "yours and other users' bots open to events (403 for another's bot that is not: "
        "nobody's bot is drafted without consent). The bot needs an active version; the "
        "one active when the entry closes plays every game.",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        given = EntryCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        entry = entry_create(
            user=signed_in_user(request),
            tournament_id=tournament_id,
            bot_id=given.validated_data["bot"],
        )
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


@method_decorator(cached_when_anonymous, name="dispatch")  # as the detail
class TournamentGamesView(APIView):
    pagination_class = PageNumberPagination

    @extend_schema(
        parameters=[TournamentGameFilterSerializer],
        responses={200: TournamentGameSerializer(many=True), **error_responses(400, 404)},
        summary="A tournament's games, round by round",
        description="In order of round, tie and index; a replayed game lists its earlier "
        "failed matches as `attempts`. Pages asked for anonymously are kept in the shared "
        "cache for AGON_LIST_CACHE_SECONDS.",
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponseBase:
        tournament = _tournament_or_404(request, tournament_id)
        given = TournamentGameFilterSerializer(data=query_values(request))
        given.is_valid(raise_exception=True)

        def page_json() -> Any:
            games = tournament_games(tournament, round=given.validated_data.get("round"))
            paginator, page = paginate(self, games)
            rows = game_rows(page)
            seated = {number for game in rows for number in game.bots}
            entrants = entry_rows(tournament.id, numbers=seated)
            return paginator.get_paginated_response(games_json(rows, entrants, request)).data

        return kept_json(request, shown_key(tournament), page_json)


class EntryDetailView(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly,)

    @extend_schema(
        request=None,
        responses={204: None, **error_responses(400, 401, 403, 404)},
        summary="Withdraw an entry",
        description="By the bot's owner, who entered it, or the tournament's owner. While "
        "the entry is open the entry is removed (withdrawing it again is a 404). While the "
        "tournament runs the bot forfeits every game it has left to play, now and in the "
        "rounds to come (a loss each: the others in the game share the first place); its "
        "played games keep their results, the tournament plays on to its end, and the "
        "entry shows `withdrawn` (withdrawing it again changes nothing). A tournament "
        "that is over: 400.",
    )
    def delete(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        entry_withdraw(user=signed_in_user(request), tournament_id=tournament_id, entry_id=entry_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class BotEntriesView(APIView):
    pagination_class = PageNumberPagination

    @extend_schema(
        responses={200: BotEntrySerializer(many=True), **error_responses(400, 404)},
        summary="The tournaments a bot is entered in",
        description="Newest first, each entry with its tournament: to the bot's owner every "
        "one (public, and private ones someone entered it in); to others those they may "
        "see. Withdraw one with DELETE /api/tournaments/{id}/entries/{entry_id}/.",
    )
    def get(self, request: Request, bot_id: int) -> Response:
        bot = bot_or_404(bot_id)
        paginator, page = paginate(self, bot_entries(bot_id=bot.id, viewer=_user_or_none(request)))
        return paginator.get_paginated_response(BotEntrySerializer(page, many=True).data)


class TournamentCancelView(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly,)

    @extend_schema(
        request=None,
        responses={200: TournamentSerializer, **error_responses(400, 401, 403, 404)},
        summary="Cancel a tournament that has not finished",
        description="Its owner cancels a private tournament, staff any. Queued games are "
        "not played; running ones finish and are ignored; the standings are frozen. "
        "Cancelling it again returns it unchanged.",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_cancel(user=signed_in_user(request), tournament_id=tournament_id)
        return Response(TournamentSerializer(tournament).data)
