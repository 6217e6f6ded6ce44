"""Challenges: unranked matches between chosen bots on a ladder's settings.

POST /api/challenges/   {"ladder": id, "bots": [bot ids]}   (rate limited)
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from agon.api.common import error_responses, signed_in_user
from agon.api.matches import MatchDetailSerializer, match_detail_json
from agon.api.throttles import ChallengeThrottle
from agon.ladders.selectors import ladder_get
from agon.ladders.services import challenge_create


class ChallengeSerializer(serializers.Serializer[Any]):
    ladder = serializers.IntegerField(help_text="The ladder whose game and options to play.")
    bots = serializers.ListField(
        child=serializers.IntegerField(),
        allow_empty=False,
        help_text="Bot ids, one per seat in seat order; one of them must be yours.",
    )


class ChallengeView(APIView):
    permission_classes = (IsAuthenticated,)
    throttle_classes = (ChallengeThrottle,)

    @extend_schema(
        request=ChallengeSerializer,
        responses={201: MatchDetailSerializer, **error_responses(400, 401, 403, 404, 429)},
        summary="Challenge bots to an unranked match",
        description="The bots play with their active versions; the match does not change "
        "ratings. Rate limited per user (AGON_CHALLENGE_RATE); at most "
        "AGON_CHALLENGES_WAITING of a user's challenges queued or playing at once (400).",
    )
    def post(self, request: Request) -> Response:
        given = ChallengeSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        ladder = ladder_get(ladder_id=given.validated_data["ladder"])
        if ladder is None:
            raise exceptions.ValidationError(f"there is no ladder {given.validated_data['ladder']}")
        match = challenge_create(
            user=signed_in_user(request), ladder=ladder, bot_ids=given.validated_data["bots"]
        )
        data = match_detail_json(match)
        return Response(data, status=status.HTTP_201_CREATED)
