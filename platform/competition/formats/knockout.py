"""Knockouts: single and double elimination for two players, heats for 3 to 6.

The bracket is seeded (entrants in the order given are seeds 1, 2, ...; the field is padded
to a power of two with byes, which the top seeds get) so that seeds 1 and 2 can meet only
in the final, 1 to 4 only in the semi-finals, and so on.

Each tie is a mini-match: `meetings` pairs of games (seats swapped, each game dealt afresh); level
after them, up to TIEBREAK_PAIRS more pairs, one at a time; still level, sudden death:
single games, the seats alternating, until one is won, at most SUDDEN_DEATH_GAMES, after
which the better seed goes through (two copies of one deterministic bot never part).

Double elimination: a loss in the winners' bracket drops a bot into the losers' bracket (its
own rounds alternate between survivors against each other and survivors against the new
drop-outs, in reversed order to put off rematches); two losses put it out. The winners'
champion meets the losers' champion in the grand final, replayed once if the losers'
champion wins it (the bracket reset).

Heats: the field is dealt to tables of at most P by seed (snake order), each table plays
`meetings` meetings, the top half of each table (ties to the better seed) goes through,
until at most P remain for the final table.

Standings rank by how far a bot went, then by points.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from competition.formats.core import Result, ScheduledGame, game_points, meeting
from competition.formats.protocol import Picture, Progress, Settings
from competition.formats.standings import Standing, rank_standings
from engine.rng import derive_seed

TIEBREAK_PAIRS = 2
SUDDEN_DEATH_GAMES = 6
TIEBREAKS = ("wins",)


@dataclass(frozen=True)
class Tie:
    round: int
    name: str
    bots: tuple[int, ...]
    points: tuple[float, ...]
    advancing: tuple[int, ...] | None
    """Who goes through, or None while the tie is being played."""


@dataclass(frozen=True)
class Knockout:
    LABEL: ClassVar[str] = "Knockout"
    PICTURE: ClassVar[Picture] = Picture.BRACKET
    TWO_PLAYERS: ClassVar[bool] = False
    TAKES_ROUNDS: ClassVar[bool] = False

    entrants: int
    seed: int
    double: bool = False
    players: int = 2
    meetings: int = 1

    def __post_init__(self) -> None:
        if self.entrants < 2 or self.players < 2 or self.meetings < 1:
            raise ValueError("a knockout needs 2+ entrants and one meeting a tie")
        if self.double and self.players != 2:
            raise ValueError("double elimination is for two-player games")

    @classmethod
    def from_settings(cls, settings: Settings) -> Knockout:
        return cls(settings.entrants, settings.seed, False, settings.players, settings.meetings)

    def next_games(self, results: Sequence[Result]) -> list[ScheduledGame]:
        return self.run(results).pending

    def standings(self, results: Sequence[Result]) -> list[Standing]:
        bracket = self.run(results)
        return rank_standings(self.entrants, results, TIEBREAKS, bracket.placement())

    def ties(self, results: Sequence[Result]) -> list[Tie]:
        return self.run(results).ties

    def most_games(self) -> int:
        meeting_games = self.players * self.meetings
        if self.players > 2:  # heats: the field at least halves each round
            stages = math.ceil(math.log2(max(self.entrants, 2))) + 1
            return (2 * math.ceil(self.entrants / self.players) + stages) * meeting_games
        ties = 2 * self.entrants if self.double else self.entrants - 1
        return ties * (meeting_games + 2 * TIEBREAK_PAIRS + SUDDEN_DEATH_GAMES)

    def round_count(self) -> None:
        return None

    def progress(self, results: Sequence[Result]) -> Progress:
        """Counted in ties: how many games a tie takes depends on its tie-breaks."""
        ties = self.run(results).ties
        total = max(len(self.outline().ties), len(ties))
        return Progress(sum(tie.advancing is not None for tie in ties), total, "ties")

    def outline(self) -> Bracket:
        """The whole bracket, every table in place, as a play-out where the better seed
        always goes through draws it: which bots meet depends on the results, but not which
        tables there are (save a grand final's reset, which this play-out never needs)."""
        results: list[Result] = []
        while games := self.next_games(results):
            results += [Result(game, _better_seed_first(game)) for game in games]
        return self.run(results)

    def run(self, results: Sequence[Result]) -> Bracket:
        """Walk the bracket as far as the results decide it."""
        bracket = Bracket(self, results)
        if self.players > 2:
            _run_heats(bracket)
        elif self.double:
            _run_double(bracket, seeded_slots(self.entrants))
        else:
            _run_single(bracket, seeded_slots(self.entrants))
        return bracket

    def resolve(
        self, stage: int, name: str, bots: tuple[int, ...], played: list[Result]
    ) -> tuple[tuple[int, ...] | None, list[ScheduledGame], tuple[float, ...]]:
        """Who goes through a tie (None if not yet), the games it needs next, the points."""
        points = _points(bots, played)
        if len(bots) > 2:
            through, games = self._resolve_heat(stage, name, bots, played, points)
        else:
            through, games = self._resolve_mini_match(stage, name, bots, played, points)
        return through, games, points

    def _resolve_heat(
        self,
        stage: int,
        name: str,
        bots: tuple[int, ...],
        played: list[Result],
        points: tuple[float, ...],
    ) -> tuple[tuple[int, ...] | None, list[ScheduledGame]]:
        games = [
            g
            for number in range(self.meetings)
            for g in meeting(stage, name, bots, self.seed, number)
        ]
        missing = _missing(games, played)
        if missing:
            return None, missing
        order = sorted(range(len(bots)), key=lambda seat: (-points[seat], bots[seat]))
        return tuple(bots[s] for s in order[: len(bots) // 2]), []

    def _resolve_mini_match(
        self,
        stage: int,
        name: str,
        bots: tuple[int, ...],
        played: list[Result],
        points: tuple[float, ...],
    ) -> tuple[tuple[int, ...] | None, list[ScheduledGame]]:
        regulation = 2 * self.meetings
        paired = regulation + 2 * TIEBREAK_PAIRS
        done = len(played)
        if done < regulation:
            games = [
                g for n in range(self.meetings) for g in meeting(stage, name, bots, self.seed, n)
            ]
            return None, _missing(games, played)
        if done < paired and done % 2 == 1:  # a pair cut short by an interruption
            return None, _missing(meeting(stage, name, bots, self.seed, done // 2), played)
        if done <= paired and done % 2 == 0:
            if points[0] != points[1]:
                return (bots[0] if points[0] > points[1] else bots[1],), []
            if done < paired:
                return None, meeting(stage, name, bots, self.seed, done // 2)
        if done > paired:
            last = played[-1]
            if last.ranks[0] != last.ranks[1]:
                return (last.game.bots[last.ranks.index(1)],), []
        if done == paired + SUDDEN_DEATH_GAMES:
            return (min(bots),), []
        sudden = done - paired
        seating = bots if sudden % 2 == 0 else bots[::-1]
        game = ScheduledGame(
            stage, name, done, seating, derive_seed(self.seed, name, "sudden", sudden, one_way=True)
        )
        return None, [game]


@dataclass(frozen=True)
class DoubleElimination(Knockout):
    """A knockout in which a bot goes out at its second loss (the module says how)."""

    LABEL: ClassVar[str] = "Double Elimination"
    TWO_PLAYERS: ClassVar[bool] = True

    double: bool = True

    @classmethod
    def from_settings(cls, settings: Settings) -> DoubleElimination:
        return cls(settings.entrants, settings.seed, True, settings.players, settings.meetings)


@dataclass
class Bracket:
    """A knockout walked as far as its results go."""

    knockout: Knockout
    results: Sequence[Result]
    ties: list[Tie] = field(default_factory=list)
    byes: list[Tie] = field(default_factory=list)
    """The tables of fewer than two bots: nobody plays, whoever sits there goes through."""
    pending: list[ScheduledGame] = field(default_factory=list)
    stage: int = 0
    out_at: dict[int, float] = field(default_factory=dict)
    """The stage at which a bot went out."""
    champion: int | None = None

    def __post_init__(self) -> None:
        self.by_tie: dict[str, list[Result]] = defaultdict(list)
        for result in sorted(self.results, key=lambda r: r.game.index):
            self.by_tie[result.game.tie].append(result)

    def play(
        self, prefix: str, tables: Sequence[Sequence[int | None]]
    ) -> list[tuple[list[int | None], list[int | None]]] | None:
        """One stage: (through, out) for each table, or None while it is being played."""
        self.stage += 1
        outcomes: list[tuple[list[int | None], list[int | None]]] = []
        for number, table in enumerate(tables, start=1):
            bots = tuple(sorted(bot for bot in table if bot is not None))
            name = f"{prefix}.{number}" if len(tables) > 1 else prefix
            if len(bots) < 2:
                self.byes.append(Tie(self.stage, name, bots, (0.0,) * len(bots), bots))
                outcomes.append(([*bots] or [None], [None]))
                continue
            through, games, points = self.knockout.resolve(
                self.stage, name, bots, self.by_tie[name]
            )
            self.ties.append(Tie(self.stage, name, bots, points, through))
            self.pending += games
            if through is not None:
                out = [bot for bot in bots if bot not in through]
                outcomes.append(([*through], [*out]))
        if self.pending:
            return None
        return outcomes

    def knock_out(self, bots: Sequence[int | None]) -> None:
        for bot in bots:
            if bot is not None:
                self.out_at[bot] = self.stage

    def placement(self) -> dict[int, float]:
        """Lower is better: the champion, then those who went out latest."""
        last = self.stage + 1
        return {
            bot: -(last + 1 if bot == self.champion else self.out_at.get(bot, last))
            for bot in range(self.knockout.entrants)
        }


def seeded_slots(entrants: int) -> list[int | None]:
    """Bracket order of seeds 0..entrants-1 padded with byes (None) to a power of two."""
    size = 1 << max(1, math.ceil(math.log2(entrants)))
    order = [0]
    while len(order) < size:
        span = 2 * len(order)
        order = [s for seed in order for s in (seed, span - 1 - seed)]
    return [seed if seed < entrants else None for seed in order]


def _pairs(slots: Sequence[int | None]) -> list[tuple[int | None, int | None]]:
    return [(slots[i], slots[i + 1]) for i in range(0, len(slots), 2)]


def _run_single(bracket: Bracket, slots: list[int | None]) -> None:
    round_ = 1
    while len(slots) > 1:
        outcomes = bracket.play(f"R{round_}", _pairs(slots))
        if outcomes is None:
            return
        slots = [through[0] for through, _ in outcomes]
        bracket.knock_out([out[0] for _, out in outcomes])
        round_ += 1
    bracket.champion = slots[0]


def _run_double(bracket: Bracket, slots: list[int | None]) -> None:
    outcomes = bracket.play("W1", _pairs(slots))
    if outcomes is None:
        return
    winners = [through[0] for through, _ in outcomes]
    losers = [out[0] for _, out in outcomes]
    w_round, l_round = 2, 1
    while True:
        if len(losers) > 1:
            outcomes = bracket.play(f"L{l_round}", _pairs(losers))
            if outcomes is None:
                return
            losers = [through[0] for through, _ in outcomes]
            bracket.knock_out([out[0] for _, out in outcomes])
            l_round += 1
        if len(winners) == 1:
            break
        outcomes = bracket.play(f"W{w_round}", _pairs(winners))
        if outcomes is None:
            return
        winners = [through[0] for through, _ in outcomes]
        dropped = [out[0] for _, out in outcomes]
        if w_round % 2 == 0:
            dropped.reverse()
        outcomes = bracket.play(f"L{l_round}", list(zip(losers, dropped, strict=True)))
        if outcomes is None:
            return
        losers = [through[0] for through, _ in outcomes]
        bracket.knock_out([out[0] for _, out in outcomes])
        w_round, l_round = w_round + 1, l_round + 1
    _grand_final(bracket, winners[0], losers[0])


def _grand_final(bracket: Bracket, winner: int | None, loser: int | None) -> None:
    outcomes = bracket.play("GF", [(winner, loser)])
    if outcomes is None:
        return
    champion = outcomes[0][0][0]
    if champion == loser and winner is not None:
        outcomes = bracket.play("GF2", [(winner, loser)])
        if outcomes is None:
            return
        champion = outcomes[0][0][0]
    bracket.knock_out([bot for bot in (winner, loser) if bot != champion])
    bracket.champion = champion


def _run_heats(bracket: Bracket) -> None:
    players = bracket.knockout.players
    alive = list(range(bracket.knockout.entrants))
    heat = 1
    while len(alive) > players:
        tables_count = math.ceil(len(alive) / players)
        tables: list[list[int | None]] = [[] for _ in range(tables_count)]
        for place, bot in enumerate(alive):
            lap, offset = divmod(place, tables_count)
            tables[offset if lap % 2 == 0 else tables_count - 1 - offset].append(bot)
        outcomes = bracket.play(f"H{heat}", tables)
        if outcomes is None:
            return
        alive = sorted(bot for through, _ in outcomes for bot in through if bot is not None)
        bracket.knock_out([bot for _, out in outcomes for bot in out])
        heat += 1
    outcomes = bracket.play("F", [alive])
    if outcomes is None:
        return
    bracket.champion = outcomes[0][0][0]
    final = bracket.ties[-1]
    order = sorted(range(len(final.bots)), key=lambda s: (-final.points[s], final.bots[s]))
    for place, seat in enumerate(reversed(order)):
        bracket.out_at[final.bots[seat]] = bracket.stage + place / len(order)


def _better_seed_first(game: ScheduledGame) -> tuple[int, ...]:
    return tuple(sorted(game.bots).index(bot) + 1 for bot in game.bots)


def _points(bots: tuple[int, ...], played: Sequence[Result]) -> tuple[float, ...]:
    totals = dict.fromkeys(bots, 0.0)
    for result in played:
        for bot, scored in zip(result.game.bots, game_points(result.ranks), strict=True):
            totals[bot] += scored
    return tuple(totals[bot] for bot in bots)


def _missing(games: Sequence[ScheduledGame], played: Sequence[Result]) -> list[ScheduledGame]:
    done = {result.game for result in played}
    return [game for game in games if game not in done]
