"""What a played match costs the database: the statements of a ranked match from its
claim to its rating changes, pinned so that a new query per match (or per seat, or one
that grows with a bot's record) shows up here instead of in the workers' CPU."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from pytest_django import Settings

from agon.ladders.models import Ladder, RatingChange
from agon.matches.models import Match
from agon.matches.services import match_execute
from tests.platform.conftest import MakeBot
from tests.platform.support import latest_version, ranked_match

RANKED_MATCH_STATEMENTS = 14
"""Of a two-seat ranked match: claim it 1 (the seed dealt afresh on a retry is part of
that statement); read the match and its seats' bots 2; finish it 11: lock the match,
read its seats with their versions (once: the ratings and the faults read them too),
a row a seat (2), its bots' names for its entry in the lists (agon.matches.listed), the
match's row, lock the ratings, a rating a seat (2), the rating
changes, and the seats' versions' records of faults (1, at most a window's rows a
version). BEGIN, COMMIT and savepoints are not counted, nor the heartbeat's thread
(its own connection, and a short match never wakes it)."""


@pytest.fixture
def unboxed(settings: Settings, tmp_path: Path) -> None:
    """The matches play for real, their bots unboxed (the statements are the same with
    any sandbox), their files in a folder of the test's."""
    settings.AGON_SANDBOX = "none"
    settings.AGON_ALLOW_UNSANDBOXED = True
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.AGON_WORK_DIR = tmp_path / "work"


@pytest.mark.usefixtures("unboxed")
def test_a_ranked_match_costs_a_fixed_few_statements_match_after_match(
    ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    versions = [latest_version(make_bot(alice, "ant")), latest_version(make_bot(bob, "bee"))]
    counts = []
    for _ in range(3):  # the bots' records grow: the statements do not
        match = ranked_match(ladder_2p, versions)
        with CaptureQueriesContext(connection) as queries:
            assert match_execute(match_id=match.id)
        statements = [
            q["sql"] for q in queries.captured_queries if q["sql"] not in {"BEGIN", "COMMIT"}
        ]
        statements = [sql for sql in statements if not sql.startswith(("SAVEPOINT", "RELEASE"))]
        counts.append(len(statements))
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        assert RatingChange.objects.filter(match=match).count() == 2
    assert counts == [RANKED_MATCH_STATEMENTS] * 3, "\n".join(statements)
