"""The registry of outcomes: what the end of a match means, for each kind, installed from
above.

The matches app plays matches and ends them exactly once, but what a result means (a
validation verdict, a rating change, nothing at all) belongs to the apps above it. The
coordinating layer (agon.match_kinds) installs one outcome per kind when the apps load;
every end of a match (finished, failed, lost by its runs) calls it inside the
transaction that ends the match, so the outcome happens exactly once too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from agon.matches.background import background_dispatch_soon
from agon.matches.models import Match

Outcome = Callable[[Match], None]

_outcomes: dict[str, Outcome] = {}


class NoOutcome(LookupError):
    """A match ended whose kind has no outcome installed."""


def outcomes_install(outcomes: Mapping[str, Outcome]) -> None:
    """Install each kind's outcome; every kind must have one, so a new kind cannot end
    without a word on what its result means."""
    missing = sorted(set(Match.Kind.values) - set(outcomes))
    if missing:
        raise NoOutcome(f"no outcome for the kinds of match {', '.join(missing)}")
    _outcomes.clear()
    _outcomes.update(outcomes)


def installed() -> Mapping[str, Outcome]:
    return dict(_outcomes)


def outcome_conclude(match: Match) -> None:
    """Apply the outcome of a match that has just ended (call inside its transaction).
    A background match's end frees room in the background share: it is given out once
    the transaction commits."""
    try:
        outcome = _outcomes[match.kind]
    except KeyError:
        raise NoOutcome(
            f"match {match.id}: no outcome installed for its kind {match.kind!r} "
            "(agon.match_kinds installs them: is it in INSTALLED_APPS?)"
        ) from None
    outcome(match)
    if match.background:
        background_dispatch_soon()
