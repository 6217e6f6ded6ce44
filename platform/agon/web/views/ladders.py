from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from agon.ladders.selectors import LeaderboardListing, ladder_get
from agon.web import selectors
from agon.web.views.common import paginate

LEADERBOARD_PAGE = 50


def ladder_list(request: HttpRequest) -> HttpResponse:
    return render(request, "web/ladders.html", {"ladders": selectors.ladders_with_leaders(top=1)})


def ladder_page(request: HttpRequest, ladder_id: int) -> HttpResponse:
    ladder = ladder_get(ladder_id=ladder_id)
    if ladder is None:
        raise Http404(f"there is no ladder {ladder_id}")
    page = paginate(request, LeaderboardListing(ladder_id=ladder.id), LEADERBOARD_PAGE)
    return render(request, "web/ladder.html", {"ladder": ladder, "page": page})
