"""The ladders, each ladder's leaderboard, and challenges from a ladder's page."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from agon.ladders.models import Ladder
from agon.ladders.selectors import LeaderboardListing, ladder_get
from agon.ladders.services import challenge_create
from agon.rate_limits.services import RateLimited, limit_take
from agon.web import selectors
from agon.web.forms import ChallengeForm
from agon.web.views.common import paginate, post_form, signed_in
from agon.web.views.rate_limited import refused_page

LEADERBOARD_PAGE = 50


def ladder_list(request: HttpRequest) -> HttpResponse:
    return render(request, "web/ladders.html", {"ladders": selectors.ladders_with_leaders(top=1)})


def _ladder_or_404(ladder_id: int) -> Ladder:
    ladder = ladder_get(ladder_id=ladder_id)
    if ladder is None:
        raise Http404(f"there is no ladder {ladder_id}")
    return ladder


def _challenge_form(
    request: HttpRequest, user: User, ladder: Ladder, data: Any = None
) -> ChallengeForm:
    """The user's challenge form on this ladder; on a page opened from a bot's
    "Challenge" link, that bot is the first opponent."""
    choices = selectors.challenge_choices(ladder=ladder, owner=user)
    return ChallengeForm(
        data,
        players=ladder.players,
        own_bots=choices.own_bots,
        opponents=choices.opponents,
        initial={"opponent_1": request.GET.get("opponent", "")},
    )


def _ladder_context(request: HttpRequest, ladder: Ladder, form: ChallengeForm | None) -> Any:
    page = paginate(request, LeaderboardListing(ladder_id=ladder.id), LEADERBOARD_PAGE)
    return {
        "ladder": ladder,
        "page": page,
        "form": form,
        "challenges_waiting": settings.AGON_CHALLENGES_WAITING,
    }


def ladder_page(request: HttpRequest, ladder_id: int) -> HttpResponse:
    ladder = _ladder_or_404(ladder_id)
    user = request.user
    form = (
        _challenge_form(request, user, ladder) if ladder.active and isinstance(user, User) else None
    )
    return render(request, "web/ladder.html", _ladder_context(request, ladder, form))


@login_required
@post_form("web:ladder", "ladder_id")
def ladder_challenge(request: HttpRequest, ladder_id: int) -> HttpResponse:
    """Start an unranked match from the ladder's challenge form, counted and checked as
    the API's POST /api/challenges/ is (the same limit, the same service), and follow it
    on its match page."""
    ladder = _ladder_or_404(ladder_id)
    user = signed_in(request)
    try:
        limit_take(limits=[("challenge", f"user:{user.id}")])
    except RateLimited as limited:
        context = _ladder_context(request, ladder, _challenge_form(request, user, ladder))
        return refused_page(request, "web/ladder.html", context, limited)
    form = _challenge_form(request, user, ladder, request.POST)
    if form.is_valid():
        try:
            match = challenge_create(user=user, ladder=ladder, bot_ids=form.seated_bot_ids())
        except (ValidationError, PermissionDenied) as refusal:
            form.add_error(None, f"Your challenge was not sent: {_reason(refusal)}.")
        else:
            messages.success(
                request,
                f"Your challenge is match #{match.id}: it plays as soon as a worker is free.",
            )
            return redirect("web:match", match_id=match.id)
    return render(request, "web/ladder.html", _ladder_context(request, ladder, form))


def _reason(refusal: ValidationError | PermissionDenied) -> str:
    if isinstance(refusal, ValidationError):
        return "; ".join(refusal.messages)
    return str(refusal)
