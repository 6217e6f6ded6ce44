"""The match list, and one match with its replay viewer (which reads the match's
timeline from the API: GET /api/matches/{id}/timeline/)."""

from __future__ import annotations

import functools

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from agon.analysis.selectors import analysis_offered
from agon.analysis.services import AnalysisRefused, analysis_request
from agon.matches.models import Match
from agon.matches.selectors import ListedMatch, MatchListing, match_get, match_seats
from agon.web import selectors
from agon.web.breakdown import breakdown
from agon.web.forms import MatchFilterForm
from agon.web.games import board_renderer
from agon.web.templatetags.agon_web import seat_label
from agon.web.views.common import page_query, paginate, post_form

MATCHES_PAGE = 25
PLAYED = (Match.Status.RUNNING, Match.Status.FINISHED, Match.Status.FAILED)


def match_list(request: HttpRequest) -> HttpResponse:
    form = MatchFilterForm(request.GET or None)
    filters = form.cleaned_data if form.is_valid() else {}
    ladder = filters.get("ladder")
    bot = filters.get("bot")
    status = filters.get("status") or ""
    chosen = functools.partial(
        MatchListing,
        viewer=request.user,
        game=filters.get("game") or None,
        ladder_id=ladder.id if ladder is not None else None,
        bot_id=bot.id if bot is not None else None,
    )
    # By default the matches played or playing: a page of queued ones tells nothing yet.
    matches: MatchListing | list[ListedMatch] = chosen(
        status=status if status not in ("", "any") else None,
        statuses=PLAYED if status == "" else (),
    )
    waiting = chosen(status=Match.Status.QUEUED).count() if status == "" else 0
    if form.is_bound and not form.is_valid():
        matches, waiting = [], 0
    queued_query = request.GET.copy()
    queued_query.pop("page", None)
    queued_query["status"] = Match.Status.QUEUED
    return render(
        request,
        "web/matches.html",
        {
            "form": form,
            "page": paginate(request, matches, MATCHES_PAGE),
            "query": page_query(request),
            "filter_bot": bot,
            "waiting": waiting,
            "waiting_url": f"?{queued_query.urlencode()}",
        },
    )


def _match_or_404(request: HttpRequest, match_id: int) -> Match:
    """The match if the user may see it (agon.matches.visibility); else it does not exist."""
    match = match_get(match_id=match_id, viewer=request.user)
    if match is None:
        raise Http404(f"there is no match {match_id}")
    return match


def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match_or_404(request, match_id)
    changes = selectors.match_rating_changes(match=match)
    shown = match_seats([match.id])[match.id]
    # A username is unique: the owner's is the seat's bot's owner.
    username = request.user.get_username() if request.user.is_authenticated else None
    seats = [
        {
            "seat": seat,
            "change": changes.get(seat.bot) if seat.bot is not None else None,
            "own": seat.bot is not None and seat.owner == username,
        }
        for seat in shown
    ]
    details = selectors.match_result_details(match=match)
    return render(
        request,
        "web/match.html",
        {
            "match": match,
            "seats": seats,
            "shown_seats": shown,
            "breakdown": breakdown(match.game, details),
            "renderer": board_renderer(match.game),
            "seat_labels": [seat_label(seat) for seat in shown],
            "analysis_askable": analysis_offered(match=match, viewer=request.user),
            # The viewer shows these seats' logs beside their turns (the API checks again).
            "own_logs": {
                seat.seat: reverse("match-seat-log", args=[match.id, seat.seat])
                for seat in shown
                if seat.bot is not None and seat.owner == username
            },
        },
    )


@login_required
@post_form("web:match", "match_id")
def match_analysis_request(request: HttpRequest, match_id: int) -> HttpResponse:
    """An owner of one of the match's bots asks for its analysis (agon.analysis)."""
    match = _match_or_404(request, match_id)
    try:
        analysis_request(match=match, user=request.user)
    except AnalysisRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, "The match is being analysed: its story shows below the board.")
    return redirect("web:match", match_id=match.id)
