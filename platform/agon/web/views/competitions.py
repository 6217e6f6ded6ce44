"""The competitions list (upcoming, running, past) and one competition: its countdown,
rules, the live leaderboard, the final (its standings and bracket or table, live), the
archive once it is over, and the viewer's entry form (and a button to take each of their
entered bots out) while it takes entries. Both go through `agon.competitions.services`,
as the API does."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from agon.competitions.models import Competition, CompetitionEntry
from agon.competitions.rules_text import rule_lines
from agon.competitions.selectors import (
    archived_games,
    competition_get,
    competition_groups,
    competition_standings,
    ladder_rows,
    next_phase,
)
from agon.competitions.services import OPEN_TO_ENTRIES, competition_enter, competition_leave
from agon.web.competition_forms import CompetitionEntryForm
from agon.web.tournament_pages import live_part
from agon.web.views.common import post_form, signed_in
from competition.formats.registry import UnknownFormat, get_format

ARCHIVED_GAMES_SHOWN = 500
"""The page lists this many of the final's archived games; the API pages through all."""


def competition_list(request: HttpRequest) -> HttpResponse:
    return render(request, "web/competitions.html", {"groups": competition_groups()})


def _competition_or_404(competition_id: int) -> Competition:
    competition = competition_get(competition_id=competition_id)
    if competition is None:
        raise Http404(f"there is no competition {competition_id}")
    return competition


def _entry_form(
    request: HttpRequest, competition: Competition, data: object = None
) -> CompetitionEntryForm | None:
    viewer = request.user if isinstance(request.user, User) else None
    if viewer is None or not _taking_entries(competition):
        return None
    return CompetitionEntryForm(data, user=viewer, competition=competition)


def _taking_entries(competition: Competition) -> bool:
    return competition.phase in OPEN_TO_ENTRIES and timezone.now() < competition.freezes


def _format_label(name: str) -> str:
    try:
        return get_format(name).LABEL
    except UnknownFormat:
        return name


def _detail_page(
    request: HttpRequest, competition: Competition, form: CompetitionEntryForm | None
) -> HttpResponse:
    final = competition.final
    other_ladders = [
        (ladder, ladder_rows(competition, ladder.players, limit=20))
        for ladder in competition.ladders.exclude(players=competition.final_players).order_by(
            "players"
        )
    ]
    context = {
        "competition": competition,
        "next": next_phase(competition),
        "format_label": _format_label(competition.final_format),
        "standings": competition_standings(competition),
        "final_ladder": competition.ladders.filter(players=competition.final_players).first(),
        "other_ladders": other_ladders,
        "final_live": live_part(final) if final is not None else None,
        "games": [
            (game, list(zip(game.seats, game.ranks or [None] * len(game.seats), strict=False)))
            for game in archived_games(competition)[:ARCHIVED_GAMES_SHOWN]
        ],
        "rules": rule_lines(competition),
        "entrants": competition.entries.count(),
        "entry_form": form,
        "own_entries": _own_entries(request, competition),
        "taking_entries": _taking_entries(competition),
    }
    return render(request, "web/competition.html", context)


def _own_entries(request: HttpRequest, competition: Competition) -> list[CompetitionEntry]:
    """The viewer's entered bots, which they may take out while it takes entries."""
    viewer = request.user if isinstance(request.user, User) else None
    if viewer is None or not _taking_entries(competition):
        return []
    return list(
        competition.entries.filter(bot__owner=viewer).select_related("bot").order_by("bot__name")
    )


def competition_detail(request: HttpRequest, competition_id: int) -> HttpResponse:
    competition = _competition_or_404(competition_id)
    return _detail_page(request, competition, _entry_form(request, competition))


@login_required
@post_form("web:competition", "competition_id")
def competition_enter_view(request: HttpRequest, competition_id: int) -> HttpResponse:
    user = signed_in(request)
    competition = _competition_or_404(competition_id)
    form = _entry_form(request, competition, request.POST) or CompetitionEntryForm(
        request.POST, user=user, competition=competition
    )
    if form.is_valid():
        try:
            entry = competition_enter(
                user=user, competition_id=competition.id, bot_id=form.cleaned_data["bot"]
            )
        except (ValidationError, PermissionDenied) as refusal:
            words = "; ".join(refusal.messages) if isinstance(refusal, ValidationError) else refusal
            form.add_error(None, f"The bot was not entered: {words}.")
        else:
            messages.success(request, f"{entry.bot.name} is entered.")
            return redirect("web:competition", competition_id=competition.id)
    return _detail_page(request, competition, form)


@login_required
@post_form("web:competition", "competition_id")
def competition_leave_view(request: HttpRequest, competition_id: int, bot_id: int) -> HttpResponse:
    competition = _competition_or_404(competition_id)
    try:
        competition_leave(user=signed_in(request), competition_id=competition.id, bot_id=bot_id)
    except ValidationError as refusal:
        messages.error(request, f"The bot was not taken out: {'; '.join(refusal.messages)}.")
    else:
        messages.success(request, "The bot is out of the competition.")
    return redirect("web:competition", competition_id=competition.id)
