"""A dataset row shows one seat's view and nothing more: its observation is exactly what
that seat was shown at that step (the replay viewer's "view as seat N", drawn from the
same engine call), and it stays the same when everything hidden from that seat (the
other hands, the face-down piles, the seed) is dealt anew. No log is ever read."""

from __future__ import annotations

import io
import json
from typing import Any

import pyarrow.parquet as pq
import pytest
from django.contrib.auth.models import User
from django.core.files.storage import default_storage

from agon.bots.models import BotVersion
from agon.datasets.building import dataset_build
from agon.datasets.models import DatasetPart
from agon.datasets.rows import MatchFacts, SeatFacts, decision_rows
from agon.ladders.models import Ladder
from agon.matches.models import MatchSeat
from engine.core import JSON
from engine.match import play_match
from engine.players import RandomBot
from engine.registry import game_ids, get_game
from engine.replay import Replay, replay_states
from engine.rng import SplitMix64
from engine.timeline import apply_patch, seat_observation_patches
from tests.engine.contract_hooks import hooks_for
from tests.platform.conftest import MakeBot
from tests.platform.datasets.support import play_for_real

UNKNOWN = SeatFacts(bot="sha256:x", rank=None, score=None, thinking_seconds=None)


def played(game_id: str, players: int, seed: int) -> Replay:
    return play_match(
        get_game(game_id),
        seed=seed,
        players=players,
        options={},
        bots=[RandomBot(seed + seat) for seat in range(players)],
        bot_ids=[f"seat{seat}" for seat in range(players)],
    )


def seat_views(replay: Replay, seat: int) -> list[JSON]:
    """What the viewer's "view as seat N" shows at each step."""
    views: list[JSON] = []
    view: JSON = None
    for patch in seat_observation_patches(replay, seat):
        view = apply_patch(view, patch)
        views.append(view)
    return views


@pytest.mark.parametrize("game_id", game_ids())
def test_each_row_is_its_seat_view_and_hides_what_that_seat_could_not_see(game_id: str) -> None:
    game = get_game(game_id)
    players = min(3, max(game.player_counts))
    replay = played(game_id, players, seed=29)
    rows = list(decision_rows(replay, MatchFacts(1, "ranked", [UNKNOWN] * players)))
    assert len(rows) == len(replay.actions)
    views = {seat: seat_views(replay, seat) for seat in range(players)}
    redeal = hooks_for(game_id).redeal_hidden
    rng = SplitMix64(29)
    for row, state in zip(rows, replay_states(replay), strict=False):
        seat, step = row["seat"], row["step"]
        assert seat == game.current_player(state)
        assert json.loads(row["observation"]) == views[seat][step]
        if step % 5 == 0:
            # On a copy: the hooks may share parts of the state they redeal from.
            other = redeal(game.state_from_json(game.state_to_json(state)), seat, rng)
            assert game.observation(other, seat) == json.loads(row["observation"])


@pytest.mark.django_db(transaction=True)
def test_a_stored_part_holds_seat_views_only_and_never_a_log(
    settings: Any, tmp_path: Any, ladders: list[Ladder], make_bot: MakeBot, alice: User, bob: User
) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    ladder = Ladder.objects.get(game="attika", players=2)
    versions = [
        BotVersion.objects.get(bot=make_bot(owner, name, "attika"), status="active")
        for owner, name in ((alice, "a"), (bob, "b"))
    ]
    match = play_for_real(ladder, versions, seed=5)
    secret = b"SECRET-LOG-LINE"
    MatchSeat.objects.filter(match=match).update(log=secret)
    dataset_build(game="attika")
    (part,) = DatasetPart.objects.all()
    with default_storage.open(part.name, "rb") as stored:
        data = stored.read()
    assert secret not in data
    rows = pq.read_table(io.BytesIO(data)).to_pylist()
    with match.replay.open("rb") as stored:
        replay = Replay.from_json(json.loads(stored.read()))
    views = {seat: seat_views(replay, seat) for seat in range(2)}
    for row in rows:
        assert json.loads(row["observation"]) == views[row["seat"]][row["step"]]
