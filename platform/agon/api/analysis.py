"""A match's analysis: every seat's chances after every move (agon.analysis).

GET  /api/matches/{id}/analysis/   what there is of it (anybody who may see the match)
POST /api/matches/{id}/analysis/   ask for it (an owner of one of the match's bots)
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from agon.analysis.selectors import analysis_document
from agon.analysis.services import AnalysisRefused, analysis_request
from agon.api.common import error_responses
from agon.matches.models import Match
from agon.matches.selectors import match_get


def _refusal(refused: AnalysisRefused) -> exceptions.APIException:
    if refused.reason in ("budget", "own-budget"):
        return exceptions.Throttled(detail=str(refused))
    if refused.reason == "not-owner":
        return exceptions.PermissionDenied(str(refused))
    return exceptions.ValidationError({"match": str(refused)})


class DropSerializer(serializers.Serializer[Any]):
    step = serializers.IntegerField(help_text="The step after the move (the viewer's ?step=).")
    seat = serializers.IntegerField(help_text="Who moved, and lost.")
    before = serializers.FloatField()
    after = serializers.FloatField()
    expected_rank_before = serializers.FloatField()
    expected_rank_after = serializers.FloatField()


class AnalysisSerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=["none", "queued", "running", "done", "failed"],
        help_text="`none`: not asked for (beat analyses ranked and tournament matches, "
        "within the day's budget; an owner asks for the others).",
    )
    can_request = serializers.BooleanField(
        help_text="Whether you may ask for it now (POST): an owner of one of its bots."
    )
    planned = serializers.BooleanField(
        help_text="Not analysed yet, but beat will send it (a finished ranked or tournament "
        "match), as the day's budget allows."
    )
    level = serializers.CharField(
        allow_null=True, help_text="The search bot whose playouts judged the positions."
    )
    seats = serializers.IntegerField()
    values = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField()),
        help_text="values[step][seat], step 0 (after setup) to the end: the seat's expected "
        "share of its meetings with the others, 0 to 1 (with two seats its chance to win, "
        "a draw half; its expected rank is 1 + (seats - 1) * (1 - value)).",
    )
    movers = serializers.ListField(
        child=serializers.IntegerField(allow_null=True),
        help_text="movers[step]: the seat whose move led to the step (null for step 0).",
    )
    drops = DropSerializer(
        many=True, help_text="The moves that cost their mover the most, largest first."
    )
    cpu_seconds = serializers.FloatField(allow_null=True)
    error = serializers.CharField(allow_blank=True)


def _match_or_404(request: Request, match_id: int) -> Match:
    match = match_get(match_id=match_id, viewer=request.user)
    if match is None:
        raise exceptions.NotFound(f"there is no match {match_id}")
    return match


class MatchAnalysisView(APIView):
    @extend_schema(
        responses={200: AnalysisSerializer, **error_responses(404)},
        summary="A match's analysis: each seat's chances after every move",
        description="Made once, in the background, by a search bot's playouts "
        "(AGON_ANALYSIS_LEVEL), deterministic from the match's seed; a page view only "
        "reads it. A bot's own evaluations are in its log (`evaluations` of "
        "`/api/matches/{id}/logs/{seat}/`), for its owner only.",
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = _match_or_404(request, match_id)
        return Response(analysis_document(match=match, viewer=request.user))

    @extend_schema(
        request=None,
        responses={202: AnalysisSerializer, **error_responses(400, 401, 403, 404, 429)},
        summary="Ask for a match's analysis",
        description="For an owner of one of the match's bots, once it has finished: "
        "within the site's day (AGON_ANALYSIS_PER_DAY) and the user's "
        "(AGON_ANALYSIS_PER_USER_PER_DAY). An analysis there is already is given back.",
    )
    def post(self, request: Request, match_id: int) -> Response:
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        match = _match_or_404(request, match_id)
        try:
            analysis_request(match=match, user=request.user)
        except AnalysisRefused as refused:
            raise _refusal(refused) from refused
        return Response(
            analysis_document(match=match, viewer=request.user), status=status.HTTP_202_ACCEPTED
        )
