"""A game's rules page: `/games/<id>/rules/`."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from agon.web.docs import DECISIONS_ANCHOR
from agon.web.games import games
from agon.web.rules import has_rules, rules_render
from engine.registry import game_ids


def rules_page(request: HttpRequest, game_id: str) -> HttpResponse:
    page = rules_render(game_id)
    if page is None:
        if game_id not in game_ids():
            raise Http404(f"there is no game {game_id!r}")
        raise Http404(f"the game {game_id!r} has no rules page yet")
    toc = [h for h in page.rules.headings if h.level == 2]
    return render(
        request,
        "web/rules.html",
        {
            "page": page,
            "toc": toc,
            "decisions_anchor": DECISIONS_ANCHOR,
            "other_games": [g for g in games() if g.id != game_id and has_rules(g.id)],
        },
    )
