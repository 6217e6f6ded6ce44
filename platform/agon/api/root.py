"""GET /api/: where everything is, for a person or a client exploring the API."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView


class ApiRootView(APIView):
    permission_classes = (AllowAny,)

    @extend_schema(responses=OpenApiTypes.OBJECT, summary="Links to the API's collections")
    def get(self, request: Request) -> Response:
        def link(name: str) -> str:
            return reverse(name, request=request)

        return Response(
            {
                "games": link("games"),
                "bots": link("bots"),
                "ladders": link("ladders"),
                "matches": link("matches"),
                "challenges": link("challenges"),
                "tournaments": link("tournaments"),
                "competitions": link("competitions"),
                "notifications": link("notifications"),
                "register": link("register"),
                "token": link("token"),
                "schema": link("schema"),
                "docs": link("api-docs"),
            }
        )
