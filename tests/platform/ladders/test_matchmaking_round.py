"""Matchmaking rounds on the database: the queue of ranked matches stays short however
many ladders there are, and the ladders share the workers by need, as the status line of
`agon up` shows."""

from __future__ import annotations

from random import Random

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from pytest_django import Settings

from agon.bots.examples import examples_owner_ensure
from agon.bots.models import Bot
from agon.cli.up_status import Snapshot, news, snapshot
from agon.ladders.models import Ladder, Rating
from agon.ladders.services import matchmaking_round
from agon.matches import services
from agon.matches.models import Match
from tests.platform.conftest import MakeBot
from tests.platform.support import play_ranked

pytestmark = pytest.mark.django_db

BOTS = 8


@pytest.fixture
def akropolis_ladders(make_bot: MakeBot, ladders: list[Ladder]) -> list[Ladder]:
    """The three Akropolis ladders (2, 3 and 4 players), each with the same 8 bots, each
    of its own owner."""
    Ladder.objects.exclude(game="akropolis").update(active=False)
    for number in range(BOTS):
        make_bot(User.objects.create_user(f"owner-{number}"), f"bot-{number}")
    return list(Ladder.objects.filter(active=True).order_by("players"))


def queued() -> list[Match]:
    return list(Match.objects.filter(kind=Match.Kind.RANKED, status=Match.Status.QUEUED))


def test_the_queue_holds_the_target_across_all_ladders(
    akropolis_ladders: list[Ladder], settings: Settings
) -> None:
    settings.AGON_QUEUE_TARGET = 3
    created = matchmaking_round(rng=Random(1))
    assert len(created) == len(queued()) == 3
    assert matchmaking_round(rng=Random(2)) == []


def test_ladders_share_the_workers_by_games_per_bot(
    akropolis_ladders: list[Ladder], settings: Settings
) -> None:
    """A worker plays the two oldest queued matches between rounds: over 30 rounds, every
    ladder's bots get about as many games as any other's, and the queue stays short."""
    settings.AGON_QUEUE_TARGET = 3
    for round_number in range(30):
        matchmaking_round(rng=Random(round_number))
        assert len(queued()) <= settings.AGON_QUEUE_TARGET
        played = sorted(queued(), key=lambda match: match.id)[:2]
        Match.objects.filter(id__in=[m.id for m in played]).update(status=Match.Status.FINISHED)
    games_per_bot = {
        ladder.players: Match.objects.filter(ladder=ladder, kind=Match.Kind.RANKED).count()
        * ladder.players
        / BOTS
        for ladder in akropolis_ladders
    }
    assert max(games_per_bot.values()) - min(games_per_bot.values()) <= 4 / BOTS, games_per_bot


@pytest.mark.django_db(transaction=True)
def test_agon_up_s_snapshot_counts_the_matches_and_names_settled_leaders_only(
    akropolis_ladders: list[Ladder], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "_enqueue", lambda match_id: None)  # no broker here
    two_players = akropolis_ladders[0]
    bots = list(Bot.objects.order_by("id"))
    for scores in ([30, 10], [10, 30], [20, 20]):
        play_ranked(two_players, bots[:2], scores)
    provisional = snapshot()
    assert provisional.ranked == 3
    assert provisional.leaders == {}, "three games settle nobody: no leader to announce"
    assert news(Snapshot(), provisional) == [provisional.summary()]

    Rating.objects.filter(ladder=two_players, bot=bots[1]).update(rankable=True, ranking=9e9)
    settled = snapshot()
    assert list(settled.leaders) == ["Akropolis 2p"]
    assert news(provisional, settled) == [
        f"Akropolis 2p: {bots[1].name} leads, {settled.leaders['Akropolis 2p'].shown} after 3 games"
    ]


def test_a_ranked_match_never_seats_two_bots_of_one_owner(
    make_bot: MakeBot, ladders: list[Ladder], alice: User, bob: User, settings: Settings
) -> None:
    """Alice's three bots and Bob's three on the 2-, 3- and 4-player Akropolis ladders:
    every table has at most one bot of each, so the 3- and 4-player ladders play none."""
    Ladder.objects.exclude(game="akropolis").update(active=False)
    settings.AGON_QUEUE_TARGET = 6
    for number in range(3):
        make_bot(alice, f"alice-{number}")
        make_bot(bob, f"bob-{number}")
    created = matchmaking_round(rng=Random(3))
    assert created, "the 2-player ladder has a table"
    for match in created:
        owners = [seat.version.bot.owner_id for seat in match.seats.all() if seat.version]
        assert len(set(owners)) == len(owners) == match.players == 2


def test_the_example_bots_ladder_plays_though_one_account_owns_them(
    make_bot: MakeBot, ladders: list[Ladder], settings: Settings
) -> None:
    """`agon up` enters the example bots for its house account, agon-examples
    (AGON_HOUSE_ACCOUNTS): its bots may meet each other, on every table size."""
    Ladder.objects.exclude(game="akropolis").update(active=False)
    settings.AGON_QUEUE_TARGET = 3
    house = examples_owner_ensure()
    for number in range(5):
        make_bot(house, f"akropolis-example-{number}")
    created = matchmaking_round(rng=Random(4))
    assert {match.players for match in created} == {2, 3, 4}


def test_a_round_reads_every_ladder_at_once(
    make_bot: MakeBot, ladders: list[Ladder], settings: Settings
) -> None:
    """A round's statements do not grow with the ladders: every active ladder (twelve
    here) is read in the same few, and only the ladders given tables read their recent
    meetings (and make their matches)."""
    settings.AGON_QUEUE_TARGET = 0
    for number in range(3):
        make_bot(User.objects.create_user(f"owner-{number}"), f"bot-{number}")
    assert Ladder.objects.filter(active=True).count() > 10
    with CaptureQueriesContext(connection) as idle:
        assert matchmaking_round(rng=Random(1)) == []
    assert len(idle.captured_queries) == 1, "a full queue: counted, nothing more"

    settings.AGON_QUEUE_TARGET = 1
    with CaptureQueriesContext(connection) as one:
        assert len(matchmaking_round(rng=Random(1))) == 1
    reads = [q["sql"] for q in one.captured_queries if q["sql"].startswith("SELECT")]
    assert len(reads) == 10, "\n".join(reads)  # 54 when each ladder was read apart
