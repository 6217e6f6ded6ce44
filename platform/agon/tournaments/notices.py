"""What the owners of a tournament's entered bots are told (agon.notifications): it
started, it was cancelled, it finished (with their bots' places). Called inside the
transaction of the change; each owner is told once, however many bots they entered."""

from __future__ import annotations

from collections import defaultdict

from django.urls import reverse

from agon.notifications.services import notify, notify_all
from agon.tournaments.models import Entry, Tournament


def _owners(tournament: Tournament) -> list[int]:
    return list(Entry.objects.filter(tournament=tournament).values_list("bot__owner_id", flat=True))


def _facts(tournament: Tournament) -> dict[str, object]:
    return {
        "tournament": tournament.id,
        "name": tournament.name,
        "game": tournament.game,
        "format": tournament.format,
        "status": tournament.status,
    }


def tournament_phase_notify(tournament: Tournament) -> None:
    """It started (its entry closed) or was cancelled."""
    if tournament.status == Tournament.Status.RUNNING:
        playing = Entry.objects.filter(tournament=tournament, number__isnull=False).count()
        title = f"{tournament.name} has started"
        text = f"The entry closed: {playing} bots play, each with its version frozen now."
    elif tournament.status == Tournament.Status.CANCELLED:
        title = f"{tournament.name} was cancelled"
        text = tournament.note or "It was cancelled."
    else:
        raise ValueError(f"no phase notice for a tournament {tournament.status}")
    notify_all(
        user_ids=_owners(tournament),
        kind="tournament_phase",
        key=f"{tournament.id}:{tournament.status}",
        title=title,
        text=text,
        path=reverse("web:tournament", args=[tournament.id]),
        data=_facts(tournament),
    )


def tournament_result_notify(tournament: Tournament) -> None:
    """It finished: each owner is told their bots' places."""
    owner_of = dict(
        Entry.objects.filter(tournament=tournament).values_list("bot_id", "bot__owner_id")
    )
    places: dict[int, list[dict[str, object]]] = defaultdict(list)
    for row in tournament.standings:
        owner = owner_of.get(int(str(row["bot"])))
        if owner is not None:
            places[owner].append({"rank": row["rank"], "version": row["version"]})
    field = len(tournament.standings)
    for owner in sorted(places):
        mine = places[owner]
        words = ", ".join(f"{place['version']} placed {place['rank']} of {field}" for place in mine)
        notify(
            user_id=owner,
            kind="tournament_result",
            key=f"{tournament.id}",
            title=f"{tournament.name} has finished",
            text=f"{words}.",
            path=reverse("web:tournament", args=[tournament.id]),
            data={**_facts(tournament), "entrants": field, "places": mine},
        )
