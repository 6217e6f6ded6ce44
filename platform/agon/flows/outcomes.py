"""Each kind of match's outcome: the one place that says what a result means."""

from __future__ import annotations

from agon.bots.models import BotVersion
from agon.bots.services import validation_conclude
from agon.ladders.services import ratings_apply, ratings_enter
from agon.matches.models import Match
from agon.matches.outcomes import outcomes_install


def validation_outcome(match: Match) -> None:
    """The version is judged; once active, it plays on its game's ladders."""
    version = validation_conclude(match=match)
    if version is not None and version.status == BotVersion.Status.ACTIVE:
        ratings_enter(version=version)


def ranked_outcome(match: Match) -> None:
    """A finished ranked match moves its ladder's ratings; a failed one moves nothing."""
    if match.status == Match.Status.FINISHED:
        ratings_apply(match=match)


def challenge_outcome(match: Match) -> None:
    """A challenge is played for its own sake: no rating, no verdict."""


def outcomes_install_all() -> None:
    outcomes_install(
        {
            Match.Kind.VALIDATION: validation_outcome,
            Match.Kind.RANKED: ranked_outcome,
            Match.Kind.CHALLENGE: challenge_outcome,
        }
    )
