"""What each kind of match means, wired into the matches app when the apps load: its
outcome (the one place that says what a result means: installed into
`agon.matches.outcome_registry`), who besides staff sees a private one
(`agon.matches.visibility`), and the work that waits for the background share
(`agon.matches.background`)."""

from __future__ import annotations

from agon.bots.models import BotVersion
from agon.bots.pausing import versions_judge_faults
from agon.bots.services import validation_conclude
from agon.ladders.services import ratings_apply, ratings_enter
from agon.matches.background import Source, background_sources_install
from agon.matches.models import Match
from agon.matches.outcome_registry import outcomes_install
from agon.matches.selectors import seats_with_versions
from agon.matches.visibility import audiences_install
from agon.tournaments.scheduling import (
    tournament_dispatch,
    tournament_game_conclude,
    tournaments_waiting,
)
from agon.tournaments.services import tournament_matches_audience
from agon.version_testing.services import (
    version_test_dispatch,
    version_test_game_ended,
    version_tests_waiting,
)


def validation_outcome(match: Match) -> None:
    """The version is judged; once active, it plays on its game's ladders."""
    version = validation_conclude(match=match)
    if version is not None and version.status == BotVersion.Status.ACTIVE:
        ratings_enter(version=version)


def ranked_outcome(match: Match) -> None:
    """A finished ranked match moves its ladder's ratings (a failed one moves nothing),
    and a version that faults too often is paused from matchmaking."""
    if match.status == Match.Status.FINISHED:
        ratings_apply(match=match)
        _judge_faults(match)


def challenge_outcome(match: Match) -> None:
    """A challenge is played for its own sake: no rating, no verdict on the match, and
    no judgement of its bots' faults (only ranked games pause a version: the challenger
    chose the opponent and the seed, and could steer a bot with a rare bug into a pause)."""


def human_outcome(match: Match) -> None:
    """A human game is played for its own sake, like a challenge: humans never touch a
    ladder, and a bot's faults against a human judge nothing (the human chose the game)."""


def _judge_faults(match: Match) -> None:
    versions_judge_faults([seat.version for seat in seats_with_versions(match) if seat.version])


def tournament_outcome(match: Match) -> None:
    """A tournament game: its result counts in the tournament, never on a ladder; a
    failed match (the platform's fault) is played again."""
    tournament_game_conclude(match)


def version_test_outcome(match: Match) -> None:
    """A version test's game moves its test, never a rating. A game the platform failed
    to play is played again; a bot's fault is in the ranks (the faulting bot is last), so
    it loses the game like any other loss."""
    version_test_game_ended(match=match)


def audiences_install_all() -> None:
    """Who sees the private events' matches besides staff and who made them: a private
    tournament's entrants' owners. A version test's games are its owner's alone (they
    made its matches)."""
    audiences_install([tournament_matches_audience])


def background_sources_install_all() -> None:
    """The work that waits for the background share of the workers."""
    background_sources_install(
        {
            "tournaments": Source(waiting=tournaments_waiting, dispatch=tournament_dispatch),
            "version_tests": Source(waiting=version_tests_waiting, dispatch=version_test_dispatch),
        }
    )


def outcomes_install_all() -> None:
    outcomes_install(
        {
            Match.Kind.VALIDATION: validation_outcome,
            Match.Kind.RANKED: ranked_outcome,
            Match.Kind.CHALLENGE: challenge_outcome,
            Match.Kind.TOURNAMENT: tournament_outcome,
            Match.Kind.VERSION_TEST: version_test_outcome,
            Match.Kind.HUMAN: human_outcome,
        }
    )
