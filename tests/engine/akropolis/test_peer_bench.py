"""bench/peer.py without what it needs says so (it never needs numba to say it)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from bench import peer


def test_without_a_peer_it_says_what_is_needed(capsys: pytest.CaptureFixture[str]) -> None:
    assert peer.main([]) == 2
    said = capsys.readouterr().err
    assert "--peer DIR" in said
    assert "numba" in said
    assert "cestpasphoto/alpha-zero-general" in said


def test_a_folder_that_is_not_the_peer_is_named(tmp_path: Path) -> None:
    with pytest.raises(peer.PeerUnavailable, match=r"no akropolis/AkropolisLogicNumba\.py"):
        peer.load_peer(tmp_path, 2, tmp_path / "cache")


def test_a_python_without_numba_is_told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "akropolis"
    folder.mkdir()
    (folder / "AkropolisConstants.py").write_text("N_PLAYERS = 2\n")
    (folder / "AkropolisLogicNumba.py").write_text("")
    monkeypatch.setitem(sys.modules, "numba", None)
    with pytest.raises(peer.PeerUnavailable, match="this Python has no numba"):
        peer.load_peer(tmp_path, 4, tmp_path / "cache")


@pytest.mark.parametrize("players", [2, 4])
def test_agon_plays_the_same_games_by_index_as_by_checked_action(players: int) -> None:
    for seed in range(3):
        checked = peer.agon_playout(players, random.Random(seed), by_index=False)
        by_index = peer.agon_playout(players, random.Random(seed), by_index=True)
        assert by_index == checked
        assert max(checked.scores) > 0


def _rows(peer_turns: float) -> dict[int, list[peer.Row]]:
    return {
        2: [
            peer.Row(peer.PEER_ROWS[0], 1000.0, peer_turns, 100000.0),
            peer.Row(peer.PEER_ROWS[1], 2000.0, peer_turns, 200000.0),
            peer.Row("agon", 1000.0, 36.0, 50000.0, 60000.0),
        ]
    }


def test_the_table_gives_agon_against_both_the_peer_per_call_and_compiled(
    capsys: pytest.CaptureFixture[str],
) -> None:
    peer.print_table(_rows(36.0))
    said = capsys.readouterr().out
    assert "ratios to the peer, per call" in said
    assert "ratios to the peer, compiled loop" in said
    per_call, compiled = said.split("ratios to the peer, compiled loop")
    assert "1.00x |   0.50x |   0.60x" in per_call
    assert "0.50x |   0.25x |   0.30x" in compiled


def test_the_per_game_ratio_is_given_only_where_the_games_differ(
    capsys: pytest.CaptureFixture[str],
) -> None:
    peer.print_table(_rows(36.0))
    assert "a game]" not in capsys.readouterr().out
    peer.print_table(_rows(24.0))
    assert "[1.00x a game]" in capsys.readouterr().out
