"""A game's page: `/games/<id>/`: what the game is, its ladders and their best bots, its
latest matches, and how to write a bot for it."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from agon.matches.models import Match
from agon.matches.selectors import MatchListing
from agon.web import selectors
from agon.web.games import games
from agon.web.rules import has_rules

TOP = 5
"""The best bots shown per ladder."""
RECENT = 8


def game_page(request: HttpRequest, game_id: str) -> HttpResponse:
    found = [game for game in games() if game.id == game_id]
    if not found:
        raise Http404(f"there is no game {game_id!r}")
    (game,) = found
    return render(
        request,
        "web/game.html",
        {
            "game": game,
            "ladders": [
                summary
                for summary in selectors.ladders_with_leaders(top=TOP)
                if summary.ladder.game == game.id
            ],
            "recent": MatchListing(
                viewer=None, status=Match.Status.FINISHED, game=game.id, by_finish=True
            )[:RECENT],
            "has_rules": has_rules(game.id),
            "example_player_count": game.player_counts[0],
        },
    )
