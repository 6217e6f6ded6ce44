"""A game's statistics page: `/games/<id>/stats/`: win rate by seat with its interval,
the matches' lengths and final scores, the most frequent openings, by player count; the
figures are agon.game_stats's (`GET /api/games/{id}/stats/` gives them as JSON)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.dateparse import parse_datetime

from agon.game_stats.stats import game_stats_kept
from agon.web.games import games
from agon.web.stat_charts import histogram_chart, rate_bar

DASH = "\N{EN DASH}"


def _percent(value: float | None) -> str:
    return DASH if value is None else f"{value:.0%}"


def _results(row: dict[str, Any], even: float) -> dict[str, Any]:
    interval = row["interval"]
    return {
        **row,
        "rate_text": _percent(row["win_rate"]),
        "interval_text": f"{interval[0]:.0%}{DASH}{interval[1]:.0%}" if interval else DASH,
        "bar": rate_bar(row["win_rate"], interval, even),
    }


def _shown(section: dict[str, Any], game_name: str) -> dict[str, Any]:
    players, even = section["players"], section["even_rate"]
    name = f"{game_name}, {players} players"
    return {
        **section,
        "even_text": _percent(even),
        "seats": [_results(row, even) for row in section["seats"]],
        "first_mover": _results(section["first_mover"], even) if section["first_mover"] else None,
        "openings": [_results(row, even) for row in section["openings"]],
        "turns_chart": histogram_chart(
            section["turns"]["bins"],
            title=f"Lengths of the matches: {name}",
            unit="turns",
            counted="matches",
            chart_id=f"turns-{players}",
        ),
        "scores_chart": histogram_chart(
            section["scores"]["bins"],
            title=f"Final scores: {name}",
            unit="points",
            counted="seats",
            chart_id=f"scores-{players}",
        ),
    }


def game_stats_page(request: HttpRequest, game_id: str) -> HttpResponse:
    found = [game for game in games() if game.id == game_id]
    if not found:
        raise Http404(f"there is no game {game_id!r}")
    (game,) = found
    stats = game_stats_kept(game.id)
    return render(
        request,
        "web/game_stats.html",
        {
            "game": game,
            "stats": stats,
            "computed": parse_datetime(stats["computed"]),
            "sections": [_shown(section, game.name) for section in stats["player_counts"]],
            "cache_minutes": max(1, round(stats["cache_seconds"] / 60)),
        },
    )
