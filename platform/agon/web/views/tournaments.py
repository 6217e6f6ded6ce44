"""The tournament list with its "New tournament" form, and one tournament: standings,
cross-table or bracket, its games round by round, live while it runs
(static/web/tournament.js reloads the live part), one round's games at a time
(`?round=`, `&page=`), its entry form and the viewer's entries to withdraw while it takes
entries, and a cancel button for who may cancel it. The forms go through
`agon.tournaments.services` and `.cancellation`, as the API does."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from agon.tournaments.cancellation import may_cancel, tournament_cancel
from agon.tournaments.models import Entry, Tournament
from agon.tournaments.selectors import tournament_get
from agon.tournaments.services import (
    entry_create,
    entry_withdraw,
    may_withdraw,
    tournament_create,
)
from agon.web.tournament_forms import EntryForm, TournamentForm
from agon.web.tournament_pages import RoundChoice, live_part, tournament_groups
from agon.web.views.common import post_form, signed_in


def _viewer(request: HttpRequest) -> User | None:
    return request.user if isinstance(request.user, User) else None


def _refusal(error: ValidationError | PermissionDenied) -> str:
    if isinstance(error, ValidationError):
        return "; ".join(error.messages)
    return str(error)


def _list_page(request: HttpRequest, form: TournamentForm | None) -> HttpResponse:
    groups = tournament_groups(_viewer(request))
    return render(request, "web/tournaments.html", {"groups": groups, "form": form})


def tournament_list(request: HttpRequest) -> HttpResponse:
    viewer = _viewer(request)
    return _list_page(request, TournamentForm(user=viewer) if viewer else None)


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    """The "New tournament" form on its own page (GET), and making the tournament (POST);
    a refused form is shown again on the list."""
    user = signed_in(request)
    if request.method != "POST":
        form = TournamentForm(user=user)
        return render(request, "web/tournament_new.html", {"form": form})
    form = TournamentForm(request.POST, user=user)
    if form.is_valid():
        try:
            tournament = tournament_create(owner=user, **form.service_arguments())
        except (ValidationError, PermissionDenied) as refusal:
            form.add_error(None, f"The tournament was not made: {_refusal(refusal)}.")
        else:
            messages.success(request, "Your tournament takes entries now.")
            return redirect("web:tournament", tournament_id=tournament.id)
    return _list_page(request, form)


def _visible_or_404(request: HttpRequest, tournament_id: int) -> Tournament:
    tournament = tournament_get(tournament_id=tournament_id, user=_viewer(request))
    if tournament is None:
        # A private tournament is not there for anyone but its owner (and staff).
        raise Http404(f"there is no tournament {tournament_id}")
    return tournament


def _taking_entries(tournament: Tournament) -> bool:
    now = timezone.now()
    return (
        tournament.status == Tournament.Status.ENTRY
        and tournament.entry_opens <= now < tournament.entry_closes
    )


def _entry_form(request: HttpRequest, tournament: Tournament, data: Any = None) -> EntryForm | None:
    """The viewer's entry form, while the entry is open and the viewer may enter bots
    (anyone signed in a public tournament, its owner a private one)."""
    viewer = _viewer(request)
    if viewer is None or not _taking_entries(tournament):
        return None
    if not tournament.public and viewer.id != tournament.owner_id:
        return None
    return EntryForm(data, user=viewer, tournament=tournament)


def _round_choice(request: HttpRequest) -> RoundChoice:
    """?round= and &page= as whole numbers; anything else is the default."""

    def number(name: str) -> int | None:
        text = request.GET.get(name, "")
        return int(text) if text.isdigit() and 0 < int(text) < 100_000 else None

    return RoundChoice(number("round"), number("page") or 1)


def _withdrawable(request: HttpRequest, tournament: Tournament) -> list[Entry]:
    """The entries the viewer may withdraw: while the entry is open (the entry is
    removed), and while the tournament runs (the bot forfeits its remaining games)."""
    viewer = _viewer(request)
    running = tournament.status == Tournament.Status.RUNNING
    if viewer is None or not (_taking_entries(tournament) or running):
        return []
    entries = tournament.entries.filter(withdrawn__isnull=True)
    if running:
        entries = entries.filter(number__isnull=False)
    entries = entries.select_related("bot__owner", "tournament").order_by("id")
    return [entry for entry in entries if may_withdraw(entry, viewer)]


def _detail_page(
    request: HttpRequest, tournament: Tournament, form: EntryForm | None
) -> HttpResponse:
    over = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
    context = {
        "tournament": tournament,
        "live": live_part(tournament, _round_choice(request)),
        "entry_form": form,
        "taking_entries": _taking_entries(tournament),
        "withdrawable": _withdrawable(request, tournament),
        "may_cancel": tournament.status not in over and may_cancel(tournament, _viewer(request)),
    }
    return render(request, "web/tournament.html", context)


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _visible_or_404(request, tournament_id)
    return _detail_page(request, tournament, _entry_form(request, tournament))


@login_required
@post_form("web:tournament", "tournament_id")
def tournament_enter(request: HttpRequest, tournament_id: int) -> HttpResponse:
    user = signed_in(request)
    tournament = _visible_or_404(request, tournament_id)
    form = _entry_form(request, tournament, request.POST) or EntryForm(
        request.POST, user=user, tournament=tournament
    )
    if form.is_valid():
        try:
            entry = entry_create(
                user=user, tournament_id=tournament.id, bot_id=form.cleaned_data["bot"]
            )
        except (ValidationError, PermissionDenied) as refusal:
            form.add_error(None, f"The bot was not entered: {_refusal(refusal)}.")
        else:
            messages.success(request, f"{entry.bot.name} is entered.")
            return redirect("web:tournament", tournament_id=tournament.id)
    return _detail_page(request, tournament, form)


@login_required
@post_form("web:tournament", "tournament_id")
def tournament_withdraw(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    """Withdraw an entry; one withdrawn already (a second click) just says so."""
    user = signed_in(request)
    tournament = _visible_or_404(request, tournament_id)
    entry = tournament.entries.select_related("bot").filter(id=entry_id).first()
    if entry is None:
        messages.info(request, "That entry is withdrawn already.")
        return redirect("web:tournament", tournament_id=tournament.id)
    try:
        withdrawn = entry_withdraw(user=user, tournament_id=tournament.id, entry_id=entry.id)
    except ValidationError as refusal:
        messages.error(request, f"The entry was not withdrawn: {_refusal(refusal)}.")
    else:
        if withdrawn is None:
            messages.success(request, f"{entry.bot.name} is withdrawn.")
        else:
            messages.success(
                request, f"{entry.bot.name} withdrew: it forfeits the games it had left to play."
            )
    return redirect("web:tournament", tournament_id=tournament.id)


@login_required
@post_form("web:tournament", "tournament_id")
def tournament_cancel_view(request: HttpRequest, tournament_id: int) -> HttpResponse:
    user = signed_in(request)
    tournament = _visible_or_404(request, tournament_id)
    try:
        tournament_cancel(user=user, tournament_id=tournament.id)
    except ValidationError as refusal:
        messages.error(request, f"The tournament was not cancelled: {_refusal(refusal)}.")
    else:
        messages.success(request, "The tournament is cancelled: no more games are played.")
    return redirect("web:tournament", tournament_id=tournament.id)
