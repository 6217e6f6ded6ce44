"""Digests: each ranked match's replay read once for its length and openings, a bounded
number a run, oldest first; a replay that cannot be read is digested empty, once; and
the statistics then count what the digests hold."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.base import ContentFile

from agon.bots.models import BotVersion
from agon.game_stats.digests import digests_make, replay_digest
from agon.game_stats.models import MatchDigest, SeatOpening
from agon.game_stats.stats import game_stats
from agon.game_stats.tasks import game_stats_digest
from agon.ladders.models import Ladder
from agon.matches.models import Match
from engine.registry import get_game
from engine.replay import replay_states
from tests.platform.conftest import MakeBot
from tests.platform.datasets.support import play_for_real, played_replay

pytestmark = pytest.mark.django_db

GAME = "architekton"


@pytest.fixture(autouse=True)
def own_media(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def versions(make_bot: MakeBot, alice: User, bob: User) -> list[BotVersion]:
    bots = [make_bot(alice, "a", GAME), make_bot(bob, "b", GAME)]
    return [BotVersion.objects.get(bot=bot, status=BotVersion.Status.ACTIVE) for bot in bots]


@pytest.fixture
def ladder(ladders: list[Ladder]) -> Ladder:
    return Ladder.objects.get(game=GAME, players=2)


def test_a_digest_holds_the_final_turn_and_each_seats_first_action(
    ladder: Ladder, versions: list[BotVersion]
) -> None:
    match = play_for_real(ladder, versions, seed=5)
    replay = played_replay(match)
    game = get_game(GAME)
    *_, final = replay_states(replay)

    digest = replay_digest(replay)

    assert digest.turns == game.turn_number(final) > 0
    assert set(digest.openings) == {0, 1}
    assert all(label.startswith("placed a building at (") for label in digest.openings.values())


def test_a_run_digests_at_most_its_limit_oldest_first_then_the_rest(
    ladder: Ladder, versions: list[BotVersion]
) -> None:
    matches = [play_for_real(ladder, versions, seed=seed) for seed in (1, 2, 3)]

    assert digests_make(limit=2) == 2
    assert set(MatchDigest.objects.values_list("match_id", flat=True)) == {
        matches[0].id,
        matches[1].id,
    }
    assert digests_make(limit=2) == 1
    assert digests_make(limit=2) == 0
    assert SeatOpening.objects.count() == 6
    for match in matches:  # Architekton starts with seat 0
        positions = SeatOpening.objects.filter(seat__match=match).order_by("seat__seat")
        assert [opening.position for opening in positions] == [0, 1]
    assert MatchDigest.objects.filter(turns__isnull=True).count() == 0


def test_the_beat_task_digests_a_bounded_step(
    ladder: Ladder, versions: list[BotVersion], settings: Any
) -> None:
    settings.AGON_GAME_STATS_DIGESTS_PER_RUN = 1
    play_for_real(ladder, versions, seed=1)
    play_for_real(ladder, versions, seed=2)

    assert game_stats_digest() == 1
    assert MatchDigest.objects.count() == 1


def test_matches_that_do_not_count_are_not_read(ladder: Ladder, versions: list[BotVersion]) -> None:
    play_for_real(ladder, versions, seed=1, kind=Match.Kind.CHALLENGE)

    assert digests_make(limit=10) == 0


def test_an_unreadable_replay_is_digested_empty_once_and_left_out(
    ladder: Ladder, versions: list[BotVersion]
) -> None:
    broken = play_for_real(ladder, versions, seed=1)
    broken.replay.save("broken.json", ContentFile(b'{"format": "agon-replay/1", "game": 3}'))
    good = play_for_real(ladder, versions, seed=2)

    assert digests_make(limit=10) == 2
    assert MatchDigest.objects.get(match=broken).turns is None
    assert not SeatOpening.objects.filter(seat__match=broken).exists()
    assert digests_make(limit=10) == 0

    two = game_stats(GAME)["player_counts"][0]
    assert two["matches"] == 2 and two["digested"] == 1
    assert two["turns"]["count"] == 1
    assert MatchDigest.objects.get(match=good).turns == two["turns"]["low"]
    assert sum(row["played"] for row in two["openings"]) == 2
