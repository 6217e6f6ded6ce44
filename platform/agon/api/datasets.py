"""Every public match as a dataset (agon.datasets).

GET /api/games/{game}/datasets/               the manifest, each part with its address
GET /api/games/{game}/datasets/files/{name}   a part's Parquet file (Range: bytes=N-)
"""

from __future__ import annotations

from typing import Any

from django.http import StreamingHttpResponse
from django.http.response import HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from agon.api.common import FileContentNegotiation, error_responses
from agon.api.throttles import DatasetDownloadThrottle
from agon.datasets.manifest import dataset_part, manifest_document
from agon.datasets.ranges import UnsatisfiableRange, requested_range, stored_bytes
from engine.registry import game_ids

PARQUET = "application/vnd.apache.parquet"


class DatasetPartSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(help_text="The file's name: `part-NNNNNN-<digest>.parquet`.")
    number = serializers.IntegerField()
    rows = serializers.IntegerField(help_text="Decisions in the part, one row each.")
    matches = serializers.IntegerField()
    first_match = serializers.IntegerField(allow_null=True)
    last_match = serializers.IntegerField(allow_null=True)
    size = serializers.IntegerField(help_text="Bytes.")
    sha256 = serializers.CharField()
    built = serializers.DateTimeField(help_text="When the file was written.")
    url = serializers.URLField(help_text="Where to download it (it takes `Range: bytes=N-`).")


class DatasetSerializer(serializers.Serializer[Any]):
    game = serializers.CharField()
    schema_version = serializers.IntegerField()
    licence = serializers.CharField()
    matches = serializers.IntegerField()
    rows = serializers.IntegerField()
    size = serializers.IntegerField()
    matches_left_out = serializers.IntegerField(
        help_text="Matches that qualified but whose replay no longer plays through the engine."
    )
    built = serializers.DateTimeField(allow_null=True)
    datasheet_url = serializers.URLField()
    parts = DatasetPartSerializer(many=True)


def _known_game(game_id: str) -> None:
    if game_id not in game_ids():
        raise exceptions.NotFound(f"there is no game {game_id!r}")


class DatasetView(APIView):
    permission_classes = (AllowAny,)

    @extend_schema(
        responses={200: DatasetSerializer, **error_responses(404)},
        summary="A game's dataset: its manifest and parts",
        description="Every finished ranked match and public tournament game of the game, "
        "one Parquet row per decision as the deciding seat saw it (docs/datasets.md).",
    )
    def get(self, request: Request, game_id: str) -> Response:
        _known_game(game_id)
        document = manifest_document(game_id)
        for part in document["parts"]:
            part["url"] = reverse("dataset-file", args=[game_id, part["name"]], request=request)
        document["datasheet_url"] = reverse("web:dataset", args=[game_id], request=request)
        return Response(DatasetSerializer(document).data)


class DatasetFileView(APIView):
    permission_classes = (AllowAny,)
    content_negotiation_class = FileContentNegotiation
    throttle_classes = (DatasetDownloadThrottle,)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "Range",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="`bytes=N-` (or `bytes=N-M`): the file from byte N, to resume.",
            )
        ],
        responses={
            (200, PARQUET): OpenApiResponse(OpenApiTypes.BINARY, description="The part."),
            (206, PARQUET): OpenApiResponse(OpenApiTypes.BINARY, description="Bytes asked."),
            **error_responses(404, 416),
        },
        summary="Download a part of a game's dataset",
    )
    def get(self, request: Request, game_id: str, name: str) -> HttpResponseBase:
        _known_game(game_id)
        part = dataset_part(game_id, name)
        if part is None:
            raise exceptions.NotFound(f"the {game_id} dataset has no part {name!r}")
        try:
            asked = requested_range(request.headers.get("Range"), part.size)
        except UnsatisfiableRange as problem:
            response = Response({"error": str(problem)}, status=416)
            response["Content-Range"] = f"bytes */{part.size}"
            return response
        first, last = asked or (0, part.size - 1)
        streamed = StreamingHttpResponse(
            stored_bytes(part.name, first, last),
            status=206 if asked else 200,
            content_type=PARQUET,
        )
        streamed["Content-Length"] = str(last - first + 1)
        streamed["Accept-Ranges"] = "bytes"
        streamed["ETag"] = f'"{part.sha256}"'
        streamed["Content-Disposition"] = f'attachment; filename="{part.file_name}"'
        if asked:
            streamed["Content-Range"] = f"bytes {first}-{last}/{part.size}"
        return streamed
