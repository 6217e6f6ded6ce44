"""A bot that tries to veto its losses, through the real pipeline on PostgreSQL: a real
worker plays it in real boxes, and its match is stored, rated, and its log read back
byte for byte by its owner alone."""

from __future__ import annotations

import base64
import time

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from agon.bots.services import bot_submit
from agon.ladders.models import Rating, RatingChange
from agon.matches.models import Match
from sandbox.limits import limits_for
from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import (
    EXAMPLE_BOTS,
    assert_finished_exactly_once,
    only_ladder,
    py_upload,
    wait_active,
    wait_finished,
)
from tests.platform.support import ranked_match

pytestmark = pytest.mark.django_db(transaction=True)

JUNK_HEAD = b"\x00nul \xff\xfe invalid \xed\xa0\x80 surrogate \x1b[31m\x07\r\n"
JUNK_FLOOD = b"\x00\xff" * 1_500_000
JUNK = JUNK_HEAD + JUNK_FLOOD
"""What it writes on stderr when it has lost: NUL, invalid UTF-8, an encoded lone
surrogate, controls, then 3 MB more of NUL and 0xff."""

SORE_LOSER = b"""\
import sys

from agon_bot import Bot, run

JUNK = @HEAD@ + b"\\x00\\xff" * 1_500_000


class SoreLoser(Bot):
    def start(self, info):
        self.seat = info["player"]
        self.turns = 0

    def act(self, observation, legal_actions):
        self.turns += 1
        stones = observation["stones"]
        losing = stones[self.seat] < max(stones) or self.turns >= 8
        if self.seat == 1 and self.turns >= 3 and losing:
            # 15 KB of an illegal action (under the 16 KiB line limit), NUL included
            return {"tile": "\\x00" + "x" * 15_000, "q": 0, "r": 0, "rotation": 0}
        return legal_actions[0]

    def end(self, result):
        if result["ranks"][self.seat] != 1:
            sys.stderr.buffer.write(JUNK)
            sys.stderr.buffer.flush()


run(SoreLoser())
""".replace(b"@HEAD@", repr(JUNK_HEAD).encode())


def api_client(user: User | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_a_bot_writing_nul_and_megabytes_when_losing_is_rated_down_and_its_log_is_its_owners(
    pipeline: Pipeline,
) -> None:
    ladder = only_ladder("akropolis", 2)
    pipeline.start_worker()
    owner = User.objects.create_user("sore-owner")
    rival_owner = User.objects.create_user("rival-owner")
    rival = bot_submit(
        owner=rival_owner,
        name="plain",
        game="akropolis",
        upload=py_upload("random_bot.py", (EXAMPLE_BOTS / "random_bot.py").read_bytes()),
    )
    loser = bot_submit(
        owner=owner, name="sore-loser", game="akropolis", upload=py_upload("main.py", SORE_LOSER)
    )
    # Its validation (seat 0) has no illegal action; if it loses it, it writes its junk,
    # which no longer fails the match nor rejects the version.
    versions = [wait_active(bot.versions.get(), pipeline.explain()) for bot in (rival, loser)]

    started = time.monotonic()
    match = wait_finished(ranked_match(ladder, versions), pipeline.explain())
    print(f"the sore loser's match finished and was rated in {time.monotonic() - started:.1f} s")

    assert match.attempts == 1 and match.error == ""
    assert [(fault["seat"], fault["kind"]) for fault in match.faults] == [(1, "illegal_action")]
    detail = match.faults[0]["detail"]
    assert len(detail) < 400 and detail.endswith("more characters)"), detail
    assert match.ranks == [1, 2]
    assert_finished_exactly_once(match)
    change = RatingChange.objects.get(match=match, bot=loser)
    assert change.after < change.before
    assert Rating.objects.get(ladder=ladder, bot=loser).rating == pytest.approx(change.after)

    log_url = f"/api/matches/{match.id}/logs/1/"
    shown = api_client(owner).get(log_url).json()
    kept = limits_for("akropolis").log_bytes
    assert base64.b64decode(shown["log_base64"]) == JUNK[:kept]
    assert shown["log"].startswith("\\x00nul \\xff\\xfe invalid \\xed\\xa0\\x80 surrogate ")
    assert 0 < shown["log_dropped_bytes"] <= len(JUNK) - kept
    assert api_client(rival_owner).get(log_url).status_code == 403
    assert api_client().get(log_url).status_code == 401
    public = api_client().get(f"/api/matches/{match.id}/").content
    assert b"nul" not in public and b"invalid" not in public
    assert Match.objects.get(id=match.id).seats.get(seat=1).log_dropped_bytes > 0
