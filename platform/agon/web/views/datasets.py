"""A game's datasheet: `/games/<id>/dataset/`: what its dataset holds, how it is made,
how big it is, its licence and how to download it."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from agon.datasets.manifest import dataset_summary, licence
from agon.datasets.schema import COLUMNS, SCHEMA_VERSION
from agon.web.games import games


def datasheet(request: HttpRequest, game_id: str) -> HttpResponse:
    found = [game for game in games() if game.id == game_id]
    if not found:
        raise Http404(f"there is no game {game_id!r}")
    (game,) = found
    summary = dataset_summary(game.id)
    return render(
        request,
        "web/dataset.html",
        {
            "game": game,
            "summary": summary,
            "columns": COLUMNS,
            "schema_version": SCHEMA_VERSION,
            "licence": licence(),
            "part_matches": settings.AGON_DATASET_PART_MATCHES,
            "build_minutes": round(settings.AGON_DATASET_SECONDS / 60),
            "rows_per_match": summary.rows / summary.matches if summary.matches else None,
        },
    )
