"""Issue 17, side by side: Agon's Akropolis engine against the peer's, in one process,
in CPU time.

The peer is cestpasphoto/alpha-zero-general's Akropolis (numba), driven through its
Python `Board` API as its own `AkropolisGame` drives it. Nothing of it is in this
repository: bring a checkout and a Python that has numba and numpy, then

    git clone https://github.com/cestpasphoto/alpha-zero-general ../alpha-zero-general
    python -m venv ../peer-venv && ../peer-venv/bin/pip install numba numpy
    ../peer-venv/bin/python bench/peer.py --peer ../alpha-zero-general

(Agon's engine needs only the standard library, so that Python runs it from this
checkout as it is.) The peer fixes its player count in a module constant
(`AkropolisConstants.N_PLAYERS`); its modules are loaded once per player count, that
line changed in memory, the files untouched.

Per player count, after the peer's JIT warm-up (timed, printed): random playouts per
CPU-second and turns per game of the peer twice, "per call" (each `Board` call made from
Python, as its `AkropolisGame` makes them) and "compiled loop" (the playout and
evaluation loops themselves compiled in numba over the same jitted `Board`, so the peer
runs at its real speed: `CompiledPeer`); of Agon (driven by the same generator as the
peer: each picked action applied as the referee applies a bot's, checked, and "by
index" as the peer's `make_move` takes a move; both again with Akropolis' compiled core
off, ", pure Python", where it is built: issue 32), and of Agon's turns on the C
prototype's cities (`bench/prototype`, built here when a C compiler is found); the
evaluation rate of a lookahead (the peer: copy + `make_move` + `get_score`; Agon:
copy + apply + `Akropolis.scores`, as `agon_bot.Lookahead`; the prototype: the same on C
cities); Agon's evaluation measured as the peer's is ("mover": copy + `apply_legal` of
an index into the position's legal actions + `Akropolis.score` of the mover, as
`Lookahead.score_after(index)`); and Agon's ratios to each form of the peer, per turn,
and per game only where the games differ in length. The contenders take turns in short
spells (`bench.interleave`), so the ratios hold on a busy machine.
"""

from __future__ import annotations

import argparse
import importlib
import random
import re
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from bench import interleave  # noqa: E402
from bench.cpu_table import (  # noqa: E402
    calibration_rate,
    evaluation_work,
    mover_evaluation_work,
    play_randomly,
    tries,
)
from bench.prototype import c_cities  # noqa: E402
from bench.prototype.build import NoCompiler, build_core  # noqa: E402
from engine import get_game  # noqa: E402
from engine.akropolis import native  # noqa: E402
from engine.akropolis.spec import AKROPOLIS  # noqa: E402
from engine.core import MatchResult  # noqa: E402

NEEDED = """bench/peer.py needs the peer to compare with:
  --peer DIR   a checkout of https://github.com/cestpasphoto/alpha-zero-general
               (its akropolis/ folder: AkropolisLogicNumba.py, AkropolisConstants.py)
and a Python with numba and numpy to run it, e.g.
  python -m venv ../peer-venv && ../peer-venv/bin/pip install numba numpy
  ../peer-venv/bin/python bench/peer.py --peer ../alpha-zero-general
No peer code is shipped with Agon."""


class PeerUnavailable(RuntimeError):
    pass


# --- the peer ---------------------------------------------------------------------------


def _module_from_source(name: str, path: Path, text: str) -> ModuleType:
    module = ModuleType(name)
    module.__file__ = str(path)
    module.__package__ = name.rpartition(".")[0]
    sys.modules[name] = module
    exec(compile(text, str(path), "exec"), module.__dict__)  # noqa: S102  (the peer's own code)
    return module


def load_peer(checkout: Path, players: int, cache: Path) -> ModuleType:
    """The peer's AkropolisLogicNumba for `players` (a package of its own per count)."""
    source = checkout / "akropolis"
    constants_path = source / "AkropolisConstants.py"
    logic_path = source / "AkropolisLogicNumba.py"
    if not constants_path.exists() or not logic_path.exists():
        raise PeerUnavailable(f"no akropolis/AkropolisLogicNumba.py in {checkout}\n\n{NEEDED}")
    try:
        numba = importlib.import_module("numba")
    except ImportError as missing:
        raise PeerUnavailable(f"this Python has no numba ({missing})\n\n{NEEDED}") from None
    package = f"_peer_akropolis_{players}p"
    holder = ModuleType(package)
    holder.__path__ = [str(source)]
    sys.modules[package] = holder
    constants, count = re.subn(
        r"^N_PLAYERS\s*=\s*\d+",
        f"N_PLAYERS = {players}",
        constants_path.read_text("utf-8"),
        flags=re.MULTILINE,
    )
    if count != 1:
        raise PeerUnavailable(f"{constants_path} sets no N_PLAYERS at the start of a line")
    _module_from_source(f"{package}.AkropolisConstants", constants_path, constants)
    # The JIT caches of each player count apart: a cached function keeps the constants.
    numba.config.CACHE_DIR = str(cache / package)
    return _module_from_source(
        f"{package}.AkropolisLogicNumba", logic_path, logic_path.read_text("utf-8")
    )


class Peer:
    """The peer's game for one player count, played through its Board API."""

    def __init__(self, logic: ModuleType, players: int) -> None:
        self.numpy = importlib.import_module("numpy")
        self.players = players
        self.board = logic.Board(players)

    def playout(self, rng: random.Random) -> int:
        """A random game (uniform over the valid moves); its turns."""
        board, flatnonzero = self.board, self.numpy.flatnonzero
        board.init_game()
        player, turns = 0, 0
        while True:
            moves = flatnonzero(board.valid_moves(player))
            player = board.make_move(int(moves[rng.randrange(len(moves))]), player, 0)
            turns += 1
            if board.check_end_game(player).any():
                return turns

    def tries(self, per_position: int = 24) -> list[tuple[Any, int, int]]:
        """(state, move, player): moves spread over the valid ones of 8 positions a third
        of the way into random games, as `cpu_table.tries` for Agon."""
        board = self.board
        length = self.playout(random.Random(0))
        found = []
        for seed in range(8):
            rng = random.Random(seed)
            board.init_game()
            player = 0
            for _ in range(length // 3):
                moves = self.numpy.flatnonzero(board.valid_moves(player))
                player = board.make_move(int(moves[rng.randrange(len(moves))]), player, 0)
            moves = self.numpy.flatnonzero(board.valid_moves(player))
            stride = max(1, len(moves) // per_position)
            state = board.get_state().copy()
            found += [(state, int(move), player) for move in moves[::stride]]
        return found

    def evaluation_work(self) -> tuple[Callable[[], None], int]:
        board, pairs = self.board, self.tries()

        def work() -> None:
            for state, move, player in pairs:
                board.copy_state(state, True)
                board.make_move(move, player, 0)
                board.get_score(player)

        return work, len(pairs)


# --- the peer's whole loop compiled --------------------------------------------------


class CompiledPeer:
    """The peer at its real speed: the random playout loop and the evaluation loop
    compiled in numba over the peer's jitted `Board` (its `init_game`, `valid_moves`,
    `make_move`, `check_end_game`, `copy_state`, `get_score`), as a numba user of the
    peer would write them, so no Python runs between two of its calls. The moves are
    drawn with numba's `np.random` (seeded), uniform over the valid ones as in
    `Peer.playout`; the evaluations are the same (state, move, player) tries."""

    def __init__(self, peer: Peer) -> None:
        numba = importlib.import_module("numba")
        np = peer.numpy
        self.peer = peer

        def playouts(board: Any, games: int, seed: int) -> int:
            np.random.seed(seed)
            turns = 0
            for _ in range(games):
                board.init_game()
                player = 0
                while True:
                    moves = np.flatnonzero(board.valid_moves(player))
                    player = board.make_move(moves[np.random.randint(len(moves))], player, 0)
                    turns += 1
                    if board.check_end_game(player).any():
                        break
            return turns

        def evaluations(board: Any, states: Any, moves: Any, players: Any, rounds: int) -> int:
            total = 0
            for _ in range(rounds):
                for index in range(len(moves)):
                    board.copy_state(states[index], True)
                    board.make_move(moves[index], players[index], 0)
                    total += board.get_score(players[index])
            return total

        self._playouts, self._evaluations = numba.njit(playouts), numba.njit(evaluations)
        pairs = peer.tries()
        self.tries = len(pairs)
        self._states = np.stack([state for state, _, _ in pairs])
        self._moves = np.array([move for _, move, _ in pairs], dtype=np.int64)
        self._players = np.array([player for _, _, player in pairs], dtype=np.int64)
        self.seed = 0

    def playouts(self, games: int) -> int:
        """`games` random games in one compiled call; their turns."""
        self.seed += 1
        return int(self._playouts(self.peer.board, games, self.seed))

    def evaluate(self, rounds: int = 1) -> None:
        """`rounds` passes over the tries in one compiled call."""
        self._evaluations(self.peer.board, self._states, self._moves, self._players, rounds)


# --- Agon on C cities -------------------------------------------------------------------


def c_evaluation_work(core: ModuleType, players: int) -> tuple[Callable[[], None], int]:
    """Copy + apply + every seat's score on C cities, over `cpu_table.tries`' actions."""
    game = get_game("akropolis")
    pairs = tries("akropolis", players, start=lambda seed: c_cities.c_state(core, seed, players))

    def work() -> None:
        for state, action in pairs:
            after = game.copy_state(state)
            game.apply(after, action)
            c_cities.c_scores(after)

    return work, len(pairs)


# --- the compiled core off (issue 32) --------------------------------------------------


def pure_python(work: Callable[[], object]) -> Callable[[], object]:
    """`work` with Akropolis' compiled core off (`engine.akropolis.native`), its
    pure-Python paths taken, for the spells of a contender beside the same work on."""

    def run() -> object:
        kept = native.CORE
        native.CORE = None
        try:
            return work()
        finally:
            native.CORE = kept

    return run


PURE = ", pure Python"
"""The suffix of the rows with the compiled core off (only where it is on)."""


# --- the table --------------------------------------------------------------------------


def agon_playout(players: int, rng: random.Random, *, by_index: bool) -> MatchResult:
    """A random game of Agon's Akropolis driven as `Peer.playout` drives the peer's (the
    same generator, a uniform pick among the legal actions): the picked action applied
    as the referee applies a bot's (`apply`, the JSON action parsed and checked), or,
    `by_index`, as the peer's `make_move` takes a move (`apply_legal`, an index into the
    position's own legal actions, as a bot's own playouts would); its result."""
    game = AKROPOLIS
    state = game.new_state(rng.randrange(2**63), players, {})
    while not game.is_over(state):
        legal = game.legal_actions(state)
        if by_index:
            game.apply_legal(state, legal, rng.randrange(len(legal)))
        else:
            game.apply(state, legal[rng.randrange(len(legal))])
    return game.result(state)


def agon_turns(players: int) -> float:
    game = get_game("akropolis")
    lengths = [play_randomly(game, game.new_state(seed, players, {}), seed) for seed in range(20)]
    return sum(lengths) / len(lengths)


@dataclass
class Row:
    """One engine's figures: random playouts and evaluations per CPU-second."""

    engine: str
    playouts: float
    turns: float
    """Turns per game."""
    evaluations: float | None = None
    """Copy + move + every seat's score (the peer: its mover's, all `get_score` gives)."""
    mover: float | None = None
    """Copy + a move by index + the mover's score, the peer's own measure."""

    @property
    def turn_rate(self) -> float:
        return self.playouts * self.turns


PEER_ROWS = ("peer, per call", "peer, compiled loop")
"""The peer driven through its Python `Board` API (each call from Python, as its
`AkropolisGame` does), and its loop compiled whole in numba (`CompiledPeer`)."""

COMPILED_GAMES = 10
"""Games of one call of the compiled playout loop (a few ms, a spell's fraction)."""


def measure(
    players: int, seconds: float, peer_logic: ModuleType, core: ModuleType | None
) -> list[Row]:
    """The peer's rows (`PEER_ROWS`) then Agon's: its random playouts (the picked action
    checked, and by index), on C cities if `core`, and its evaluations, every contender
    timed in alternating spells (`bench.interleave`)."""
    start = time.process_time()
    peer = Peer(peer_logic, players)
    peer.playout(random.Random(1))
    evaluate, tries = peer.evaluation_work()
    evaluate()
    compiled = CompiledPeer(peer)
    compiled.playouts(1)
    compiled.evaluate()
    print(f"  peer JIT warm-up ({players} players): {time.process_time() - start:.1f} CPU-s")
    rng = random.Random(2)
    peer_turns = sum(peer.playout(rng) for _ in range(20)) / 20
    compiled_turns = compiled.playouts(100) / 100
    seeds = iter(range(10**9))
    playouts: dict[str, Callable[[], object]] = {
        PEER_ROWS[0]: lambda: peer.playout(rng),
        PEER_ROWS[1]: lambda: compiled.playouts(COMPILED_GAMES),
        "agon": lambda: agon_playout(players, rng, by_index=False),
        "agon, by index": lambda: agon_playout(players, rng, by_index=True),
    }
    agon_work, agon_tries = evaluation_work("akropolis", players, rescoring=False)
    mover = mover_evaluation_work("akropolis", players)
    if mover is None:
        raise AssertionError("Akropolis has `apply_legal` and `score`")
    mover_work, mover_tries = mover
    evaluations: dict[str, tuple[Callable[[], object], int]] = {
        PEER_ROWS[0]: (evaluate, tries),
        PEER_ROWS[1]: (compiled.evaluate, compiled.tries),
        "agon": (agon_work, agon_tries),
        "agon mover": (mover_work, mover_tries),
    }
    compiled_core = native.CORE is not None
    if compiled_core:
        for name in ("agon", "agon, by index"):
            playouts[name + PURE] = pure_python(playouts[name])
        for name in ("agon", "agon mover"):
            work, count = evaluations[name]
            evaluations[name + PURE] = (pure_python(work), count)
    if core is not None:
        playouts["agon, C cities"] = lambda: c_cities.random_playout(core, players, next(seeds))
        evaluations["agon, C cities"] = c_evaluation_work(core, players)
    games = interleave.rates(playouts, seconds)
    games[PEER_ROWS[1]] *= COMPILED_GAMES
    evaluated = interleave.rates({name: work for name, (work, _) in evaluations.items()}, seconds)
    per_second = {name: evaluated[name] * count for name, (_, count) in evaluations.items()}
    agon = agon_turns(players)
    rows = [
        Row(PEER_ROWS[0], games[PEER_ROWS[0]], peer_turns, per_second[PEER_ROWS[0]]),
        Row(PEER_ROWS[1], games[PEER_ROWS[1]], compiled_turns, per_second[PEER_ROWS[1]]),
        Row("agon", games["agon"], agon, per_second["agon"], per_second["agon mover"]),
        Row("agon, by index", games["agon, by index"], agon),
    ]
    if compiled_core:
        rows += [
            Row(
                "agon" + PURE,
                games["agon" + PURE],
                agon,
                per_second["agon" + PURE],
                per_second["agon mover" + PURE],
            ),
            Row("agon, by index" + PURE, games["agon, by index" + PURE], agon),
        ]
    for row in rows[:2]:
        row.mover = row.evaluations
    if core is not None:
        rows.append(
            Row("agon, C cities", games["agon, C cities"], agon, per_second["agon, C cities"])
        )
    return rows


def print_table(table: dict[int, list[Row]]) -> None:
    print(
        "players  engine                playouts/s  turns/game    turns/s     evals/s"
        "  mover evals/s"
    )
    for players, rows in table.items():
        for row in rows:
            print(
                f"{players:>7}  {row.engine:<20} {row.playouts:11.1f} {row.turns:11.1f} "
                f"{row.turn_rate:10.0f} {_figure(row.evaluations, '.0f'):>11} "
                f"{_figure(row.mover, '.0f'):>14}"
            )
    for peer_index, peer_name in enumerate(PEER_ROWS):
        print(
            f"Agon's ratios to the {peer_name}: random turns per CPU-s [games, where the games "
            "differ in length] | evaluations, every seat | evaluations, the mover by index"
        )
        for players, rows in table.items():
            peer_row = rows[peer_index]
            if peer_row.evaluations is None:
                raise AssertionError("the peer's row has its evaluations")
            for row in rows[len(PEER_ROWS) :]:
                per_game = (
                    f" [{row.playouts / peer_row.playouts:.2f}x a game]"
                    if abs(row.turns - peer_row.turns) >= 0.5
                    else ""
                )
                print(
                    f"{players:>7}  {row.engine:<20} {row.turn_rate / peer_row.turn_rate:6.2f}x"
                    f"{per_game}"
                    f" | {_ratio(row.evaluations, peer_row.evaluations)}"
                    f" | {_ratio(row.mover, peer_row.evaluations)}"
                )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peer", type=Path, help="a checkout of cestpasphoto/alpha-zero-general")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per figure")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], choices=(2, 3, 4))
    parser.add_argument("--no-prototype", action="store_true", help="skip the C cities")
    args = parser.parse_args(argv)
    if args.peer is None:
        print(NEEDED, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="agon-peer-") as scratch:
        try:
            logics = {n: load_peer(args.peer, n, Path(scratch)) for n in args.players}
        except PeerUnavailable as unavailable:
            print(unavailable, file=sys.stderr)
            return 2
        core = None
        if not args.no_prototype:
            try:
                core = build_core(Path(scratch) / "core")
            except NoCompiler as missing:
                print(f"C prototype skipped: {missing}")
        numba = importlib.import_module("numba")
        numpy = importlib.import_module("numpy")
        print(
            f"Issue 17 side by side, CPU time, one process (Python {sys.version.split()[0]}, "
            f"numba {numba.__version__}, numpy {numpy.__version__}); "
            f"calibration {calibration_rate():.0f} runs/CPU-s"
        )
        print(
            "Akropolis' compiled core (issue 32): "
            + ("on, and off in the rows marked" + PURE if native.CORE else "not in use")
        )
        table = {n: measure(n, args.seconds, logics[n], core) for n in args.players}
    print_table(table)
    return 0


def _ratio(value: float | None, peer: float) -> str:
    return _figure(None if value is None else value / peer, "6.2f", "x")


def _figure(value: float | None, spec: str, unit: str = "") -> str:
    """A figure, or "-" where there is none."""
    return "-" if value is None else format(value, spec) + unit


if __name__ == "__main__":
    sys.exit(main())
