from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from agon.web import selectors
from agon.web.games import games


def home(request: HttpRequest) -> HttpResponse:
    ladders = selectors.ladders_with_leaders(top=3)
    return render(
        request,
        "web/home.html",
        {
            "games": [
                (game, [summary for summary in ladders if summary.ladder.game == game.id])
                for game in games()
            ],
            "live": selectors.live_matches(limit=8),
            "recent": selectors.recent_matches(limit=10),
        },
    )
