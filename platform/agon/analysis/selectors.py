"""A match's analysis as the API and the viewer read it: stored values, never searched here."""

from __future__ import annotations

from typing import Any

from agon.analysis.models import MatchAnalysis
from agon.analysis.services import ANALYSED_KINDS, user_may_request
from agon.matches.models import Match
from engine.search.analysis import biggest_drops, expected_rank


def _askable(match: Match, status: str) -> bool:
    finished = match.status == Match.Status.FINISHED and bool(match.replay)
    return finished and status in ("none", MatchAnalysis.Status.FAILED)


def analysis_offered(*, match: Match, viewer: Any) -> bool:
    """Whether `viewer` may ask for the match's analysis now (the match page's button):
    its status read alone, not its values."""
    found = MatchAnalysis.objects.filter(match=match).values_list("status", flat=True).first()
    return _askable(match, found or "none") and user_may_request(match, viewer)


def analysis_document(*, match: Match, viewer: Any) -> dict[str, Any]:
    """What there is of the analysis of `match` (whom it is shown to is the match's
    business: agon.matches.visibility), and whether `viewer` may ask for one."""
    found = MatchAnalysis.objects.filter(match=match).first()
    status = found.status if found is not None else "none"
    askable = _askable(match, status)
    document: dict[str, Any] = {
        "match": match.id,
        "status": status,
        "can_request": askable and user_may_request(match, viewer),
        # Beat will send it (the day's budget allowing): worth waiting for.
        "planned": status == "none" and match.kind in ANALYSED_KINDS and askable,
        "level": None,
        "seats": match.players,
        "values": [],
        "movers": [],
        "drops": [],
        "cpu_seconds": None,
        "error": "",
    }
    if found is None:
        return document
    document["error"] = found.error
    if found.status != MatchAnalysis.Status.DONE:
        return document
    values = [[value / 1000 for value in step] for step in found.values]
    movers = list(found.movers)
    document.update(
        level=found.level,
        values=values,
        movers=movers,
        drops=[
            {
                "step": drop.step,
                "seat": drop.seat,
                "before": round(drop.before, 3),
                "after": round(drop.after, 3),
                "expected_rank_before": round(expected_rank(drop.before, match.players), 2),
                "expected_rank_after": round(expected_rank(drop.after, match.players), 2),
            }
            for drop in biggest_drops(values, movers)
        ],
        cpu_seconds=found.cpu_seconds,
    )
    return document
