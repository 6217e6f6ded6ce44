"""Schemathesis against the OpenAPI schema (/api/schema/): generated requests, valid and
not, anonymous and signed in, to every operation, in this process (the WSGI app, the
test's database). No answer may be a server error, or a status code, content type or
body the schema does not describe. The examples are bounded: the whole takes seconds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core import signals
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis import CheckFunction
from schemathesis.specs.openapi.checks import positive_data_acceptance

from agon.accounts.services import token_obtain
from agon.bots.services import bot_open_to_events
from agon.ladders.models import Ladder
from agon.tournaments.scheduling import tournament_close_entry
from agon.wsgi import application
from tests.platform.conftest import MakeBot
from tests.platform.support import play_ranked
from tests.platform.tournaments.support import after_entry, enter, open_tournament

EXAMPLES = 25
"""Generated cases per operation, mode and user."""


schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
schema.config.generation.update(
    modes=[schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE],
    max_examples=EXAMPLES,
    deterministic=True,
    database="none",
)


@pytest.fixture(autouse=True)
def world(db: None, ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User) -> Iterator[None]:
    """Bots, a finished match and tournaments (running, open) for generated ids to find
    now and then, and the in-process WSGI calls kept in the test's transaction."""
    ant = make_bot(alice, "ant")
    bee = bot_open_to_events(bot=make_bot(bob, "bee"), open_to_events=True)
    play_ranked(ladder_2p, [ant, bee], scores=[30, 20])
    for owner, public in ((User.objects.create_user("root", is_staff=True), True), (alice, False)):
        running = open_tournament(owner, public=public, format="gauntlet")
        enter(running, [ant, bee], user=alice if not public else None)
        tournament_close_entry(tournament_id=running.id, now=after_entry(running))
    open_tournament(alice)  # still open for entries
    # Django closes a connection in a transaction when a request ends; the test client
    # keeps it (the test's transaction) by not listening, and so do these calls.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def excluded_checks(case: schemathesis.Case[Any]) -> list[CheckFunction]:
    """A POST the schema allows may still break a rule no schema states (a taken
    username, a wrong password, an archive that is no bot, a ladder that does not
    exist), and so may a timeline's `seat` (one its match does not have, when the
    generated id is a match's: which it is depends on the ids the earlier cases used):
    a 400 that says why is then right. Every other check holds everywhere."""
    seat_of_a_timeline = case.path == "/api/matches/{match_id}/timeline/" and "seat" in (
        case.query or {}
    )
    return [positive_data_acceptance] if case.method == "POST" or seat_of_a_timeline else []


@schema.parametrize()
@settings(suppress_health_check=list(HealthCheck), deadline=None)
def test_the_api_answers_anybody_as_its_schema_says(case: schemathesis.Case[Any]) -> None:
    case.call_and_validate(excluded_checks=excluded_checks(case))


@schema.parametrize()
@settings(suppress_health_check=list(HealthCheck), deadline=None)
def test_the_api_answers_a_signed_in_user_as_its_schema_says(
    case: schemathesis.Case[Any], alice: User
) -> None:
    case.call_and_validate(
        headers={"Authorization": f"Token {token_obtain(user=alice).key}"},
        excluded_checks=excluded_checks(case),
    )
