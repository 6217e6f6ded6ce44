"""The match list, one match with its replay viewer, its timeline and replay files."""

from __future__ import annotations

from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from agon.matches.models import Match
from agon.matches.timeline import match_timeline
from agon.web import selectors
from agon.web.breakdown import breakdown
from agon.web.forms import MatchFilterForm
from agon.web.templatetags.agon_web import seat_label
from agon.web.views.common import page_query, paginate

MATCHES_PAGE = 25
RENDERERS = {"akropolis", "architekton", "attika", "megalopolis"}
"""Games with a board renderer in static/web/games/; others show their text render."""


def match_list(request: HttpRequest) -> HttpResponse:
    form = MatchFilterForm(request.GET or None)
    filters = form.cleaned_data if form.is_valid() else {}
    ladder = filters.get("ladder")
    bot_id = filters.get("bot")
    matches = selectors.match_list(
        game=filters.get("game") or None,
        ladder_id=ladder.id if ladder is not None else None,
        bot_id=bot_id,
        status=filters.get("status") or None,
    )
    return render(
        request,
        "web/matches.html",
        {
            "form": form,
            "page": paginate(request, matches, MATCHES_PAGE),
            "query": page_query(request),
            "filter_bot": selectors.bot_get(bot_id=bot_id) if bot_id else None,
        },
    )


def _match_or_404(match_id: int) -> Match:
    match = selectors.match_get(match_id=match_id)
    if match is None:
        raise Http404(f"there is no match {match_id}")
    return match


def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match_or_404(match_id)
    changes = selectors.match_rating_changes(match=match)
    user_id = request.user.id if request.user.is_authenticated else None
    seats = [
        {
            "seat": seat,
            "change": changes.get(seat.version.bot_id) if seat.version else None,
            "own": seat.version is not None and seat.version.bot.owner_id == user_id,
        }
        for seat in match.seats.all()
    ]
    details = selectors.match_result_details(match=match)
    return render(
        request,
        "web/match.html",
        {
            "match": match,
            "seats": seats,
            "breakdown": breakdown(match.game, details),
            "renderer": match.game if match.game in RENDERERS else "text",
            "seat_labels": [seat_label(seat) for seat in match.seats.all()],
        },
    )


@require_GET
def match_timeline_json(request: HttpRequest, match_id: int) -> JsonResponse:
    """The match step by step for the viewer (`?since=N`: from step N on)."""
    match = _match_or_404(match_id)
    try:
        since = int(request.GET.get("since", "0"))
    except ValueError:
        since = 0
    return JsonResponse(match_timeline(match, since=since))


@require_GET
def match_replay_json(request: HttpRequest, match_id: int) -> FileResponse:
    match = _match_or_404(match_id)
    if match.status != Match.Status.FINISHED or not match.replay:
        raise Http404(f"match {match_id} is {match.status}: its replay exists once it has finished")
    response = FileResponse(match.replay.open("rb"), content_type="application/json")
    response["Content-Disposition"] = f'inline; filename="agon-match-{match.id}.json"'
    return response
