"""What the owners of a competition's entered bots are told (agon.notifications): each
phase it enters, and its result with their bots' places. Called inside the transaction
of the change; each owner is told once a change, however many bots they entered."""

from __future__ import annotations

from collections import defaultdict

from django.urls import reverse

from agon.competitions.models import ArchivedStanding, Competition, CompetitionEntry
from agon.notifications.services import notify, notify_all

PHASE_WORDS = {
    Competition.Phase.OPEN: ("{name} is open", "Its ladder plays: your entered bots climb it."),
    Competition.Phase.FROZEN: (
        "{name}: submissions are frozen",
        "Each entrant's version is locked now; new uploads no longer change what plays.",
    ),
    Competition.Phase.FINAL: (
        "{name}: the final has started",
        "The top {size} of the ladder play the final on their frozen versions.",
    ),
}


def _owners(competition: Competition) -> list[int]:
    return list(competition.entries.values_list("bot__owner_id", flat=True))


def _facts(competition: Competition) -> dict[str, object]:
    return {
        "competition": competition.id,
        "name": competition.name,
        "game": competition.game,
        "phase": competition.phase,
    }


def competition_phase_notify(competition: Competition) -> None:
    if competition.phase == Competition.Phase.CANCELLED:
        title, text = f"{competition.name} was cancelled", competition.note
    else:
        title, text = PHASE_WORDS[Competition.Phase(competition.phase)]
        title = title.format(name=competition.name)
        text = text.format(size=competition.final_size)
    notify_all(
        user_ids=_owners(competition),
        kind="competition_phase",
        key=f"{competition.id}:{competition.phase}",
        title=title,
        text=text,
        path=reverse("web:competition", args=[competition.id]),
        data=_facts(competition),
    )


def competition_result_notify(competition: Competition) -> None:
    """It finished: each owner is told their bots' places (in the final, or on the
    ladder for a bot that did not reach it)."""
    owner_of = dict(
        CompetitionEntry.objects.filter(competition=competition).values_list(
            "bot_id", "bot__owner_id"
        )
    )
    places: dict[int, list[dict[str, object]]] = defaultdict(list)
    rows = ArchivedStanding.objects.filter(competition=competition).order_by("id")
    for row in rows:
        owner = owner_of.get(row.bot_id)
        if owner is not None:
            places[owner].append(
                {"bot": row.bot_name, "rank": row.rank, "ladder_place": row.ladder_place}
            )
    finalists = rows.filter(rank__isnull=False).count()
    for owner in sorted(places):
        words = ", ".join(
            f"{place['bot']} placed {place['rank']} of {finalists} in the final"
            if place["rank"] is not None
            else f"{place['bot']} was {place['ladder_place'] or 'unplaced'} on the ladder"
            for place in places[owner]
        )
        notify(
            user_id=owner,
            kind="competition_result",
            key=f"{competition.id}",
            title=f"{competition.name} has finished",
            text=f"{words}.",
            path=reverse("web:competition", args=[competition.id]),
            data={**_facts(competition), "finalists": finalists, "places": places[owner]},
        )
