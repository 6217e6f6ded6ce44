"""A match's seed keeps all 64 bits in the signed column, on the way in and out, so a
tournament's or a version test's games play the very seeds `agon tournament` and
`agon match` draw."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from hypothesis import given
from hypothesis import strategies as st

from agon.matches.fields import SEEDS, read_seed, stored_seed
from agon.matches.models import Match
from agon.tournaments.events import game_of
from agon.tournaments.models import TournamentGame
from agon.tournaments.scheduling import tournament_close_entry
from agon.version_testing.services import Baseline, version_test_create
from competition.formats.core import deal_seed
from competition.version_pairing import pair_legs
from tests.platform.conftest import MakeBot
from tests.platform.tournaments.support import after_entry, enter, open_tournament
from tests.platform.version_testing.support import bot_with_two_versions

SEED = 2
"""A tournament seed whose gauntlet games both have the top bit set, and one of their
deals too."""
EDGES = [0, 1, 2**63 - 1, 2**63, 2**64 - 1]
SIGNED = st.integers(min_value=-(2**63), max_value=2**63 - 1)


@given(st.integers(min_value=0, max_value=SEEDS - 1))
def test_a_seed_is_stored_in_the_signed_range_and_read_back_as_itself(seed: int) -> None:
    stored = stored_seed(seed)
    assert -(2**63) <= stored < 2**63
    assert read_seed(stored) == seed


@given(SIGNED)
def test_every_stored_value_stands_for_one_seed(stored: int) -> None:
    assert stored_seed(read_seed(stored)) == stored


@pytest.mark.parametrize("seed", [-1, SEEDS, SEEDS + 5])
def test_a_seed_out_of_range_is_refused(seed: int) -> None:
    with pytest.raises(ValueError, match="a seed is from 0 to 2\\*\\*64 - 1"):
        stored_seed(seed)


@pytest.mark.django_db
def test_the_column_keeps_every_bit_through_saves_updates_and_lookups() -> None:
    matches = [
        Match.objects.create(kind=Match.Kind.CHALLENGE, game="akropolis", players=2, seed=seed)
        for seed in EDGES
    ]
    for match, seed in zip(matches, EDGES, strict=True):
        match.refresh_from_db()
        assert match.seed == seed
        assert Match.objects.get(seed=seed).id == match.id
    ids = [match.id for match in matches]
    assert list(Match.objects.filter(id__in=ids).order_by("id").values_list("seed", flat=True)) == (
        EDGES
    )
    Match.objects.filter(id=ids[0]).update(seed=2**64 - 2)
    assert Match.objects.get(id=ids[0]).seed == 2**64 - 2


@pytest.mark.django_db
def test_a_tournament_game_plays_its_own_64_bit_seed(make_bot: MakeBot, alice: User) -> None:
    tournament = open_tournament(alice, format="gauntlet", seed=SEED)
    enter(tournament, [make_bot(alice, "one"), make_bot(alice, "two")])
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    games = list(TournamentGame.objects.filter(tournament=tournament).select_related("match"))
    deals = [deal_seed(game_of(game), game.replays) for game in games]
    assert any(seed >= 2**63 for seed in deals), "no seed here tells a lost top bit"
    assert [game.match.seed for game in games if game.match is not None] == deals


@pytest.mark.django_db
def test_a_version_test_plays_the_seeds_agon_match_would(make_bot: MakeBot, alice: User) -> None:
    bot = bot_with_two_versions(make_bot, alice)
    test = version_test_create(
        user=alice, bot=bot, candidate=2, baseline=Baseline(version=1), seed=5, max_games=100
    )
    queued = Match.objects.filter(kind=Match.Kind.VERSION_TEST).order_by("id")
    played = sorted(match.seed for match in queued)
    drawn = sorted(
        deal_seed(game)
        for number in range(test.pairs_created)
        for leg in pair_legs(number, test.seed, 2)
        for game in leg
    )
    assert any(seed >= 2**63 for seed in drawn), "no seed here tells a lost top bit"
    assert played == drawn
