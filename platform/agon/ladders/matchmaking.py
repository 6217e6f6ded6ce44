"""Which ladders play and who plays whom: pure functions, so the live matchmaker and the
rating simulation in `bench/ratings.py` run the same code.

The workers are shared between the ladders by need: each new match of a round goes to
the ladder whose bots played the fewest games lately (its recent matches times its
players, over its bots), among those with bots free for another table (`share_out`).

Each table is seated for what its game will teach (`pick_tables`):
- its anchor is a bot whose rating is unsure: drawn with a weight growing with its
  deviation (a bot new to its version, for a system without one), except that a bot
  overdue for a game (it waited longer than the live matchmaker allows) is seated
  first: no bot starves, however sure its rating;
- the rest of the table are opponents whose result against the table is least
  predictable: TrueSkill's match quality (Herbrich et al. 2007) on the Elo scale, which
  is highest between bots near in rating and, among those, for opponents whose own
  rating is sure (a result against a well-known opponent places the anchor best). Each
  is drawn among all the allowed bots with odds by its quality (its least against those
  seated) to a power (QUALITY_POWER, by table size): mostly near, sometimes further,
  so pairings vary and comparisons reach across the ladder;
- no pair meets more than MAX_MEETINGS times among the ladder's recent matches that the
  caller counts (`met`, over the last `pair_memory` matches): a bot is not fed the same
  neighbour over and over.
A bot never meets itself and sits at one table per round at most, and two bots of one
owner never sit at one table: a ranked match between them could be thrown to feed one
of them rating. A house account's bots (AGON_HOUSE_ACCOUNTS: the example bots' owner)
are exempt, so that a ladder of example bots alone plays.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from random import Random

QUALITY_POWER = {2: 5.0, 4: 12.0}
"""How sharply the opponents' odds favour match quality, by table size (3 and more seats
as 4): at 5, two sure ratings 200 points apart meet about a third as often as equals;
at 12, 1/17 as often. Drawing among the 12 best only (before) fed a bot on a streak bots
on streaks, whose ratings are too high alike, and left the 2-player intervals too narrow;
a matchmaker that knows the true strengths does best with 2-player opponents spread
about this widely, 4-player tables closer. Chosen among 2-8 (2p) and 3-24 (4p) on
seed 1 of `bench/ratings.py` (figures in bench/README.md)."""
MAX_MEETINGS = 3
"""A pair meets at most this many times among a ladder's last `pair_memory` matches."""
PAIR_MEMORY = 500
"""At most this many of a ladder's recent ranked matches are counted for MAX_MEETINGS."""
PERFORMANCE_SPREAD = 200.0
"""TrueSkill's beta on the Elo scale: how far one game's performance strays from the
rating (a 200-point favourite wins about 76% of games)."""
UNKNOWN_DEVIATION = 350.0
"""The deviation assumed of a rating that has none (a system without uncertainty)."""


@dataclass(frozen=True)
class Candidate:
    bot_id: int
    rating: float
    version_games: int
    deviation: float | None = None
    overdue: bool = False
    """Waited longer for a game than the live matchmaker allows: seated first."""
    owner: int | None = None
    """Its owner's id: never seated with another bot of the same owner. None for a house
    account's bot (and in simulations), which may meet any bot."""


def same_owner(one: Candidate, other: Candidate) -> bool:
    return one.owner is not None and one.owner == other.owner


def seatable(candidates: Sequence[Candidate], players: int) -> int:
    """How many of `candidates` can sit at once at tables of `players`, no two bots of
    one owner at a table: a full table's seats times the most tables they fill. A ladder
    of one owner's bots alone (its anchors, say, before anybody uploads) seats none."""
    per_owner = Counter(c.owner for c in candidates if c.owner is not None)
    anyone = sum(c.owner is None for c in candidates)
    tables = len(candidates) // players
    while tables > 0:
        if anyone + sum(min(count, tables) for count in per_owner.values()) >= tables * players:
            return tables * players
        tables -= 1
    return 0


Pair = tuple[int, int]
"""Two bot ids, lower first."""


def pair(one: int, other: int) -> Pair:
    return (one, other) if one < other else (other, one)


def pair_memory(bots: int, players: int) -> int:
    """How many of a ladder's last ranked matches `met` counts: as many as would seat
    every pair of its bots once (a round robin's worth), PAIR_MEMORY at most. In that
    many matches a pair meets once on average: MAX_MEETINGS bounds how far the
    matchmaker's preference for near opponents may feed it the same one."""
    pairs, pairs_per_table = bots * (bots - 1) // 2, players * (players - 1) // 2
    return max(1, min(-(-pairs // pairs_per_table), PAIR_MEMORY))


def meetings(tables: Iterable[Sequence[int]]) -> Counter[Pair]:
    """How many times each pair of bots sat at the same table among `tables`."""
    return Counter(
        pair(table[i], table[j])
        for table in tables
        for i in range(len(table))
        for j in range(i + 1, len(table))
    )


@dataclass(frozen=True)
class LadderLoad:
    ladder_id: int
    players: int
    bots: int
    """Bots rated on the ladder with an active version."""
    free: int
    """Of those, the ones in none of its queued or running matches that can sit at
    tables together (`seatable`)."""
    recent: int
    """Its ranked matches made lately (the last AGON_FAIR_SHARE_SECONDS)."""

    def games_per_bot(self, more: int = 0) -> float:
        """The games each of its bots played lately, on average, with `more` matches."""
        return (self.recent + more) * self.players / max(self.bots, 1)


def share_out(loads: Sequence[LadderLoad], matches: int) -> dict[int, int]:
    """How many of `matches` new matches each ladder gets (by ladder id; none for a
    ladder left out): one at a time, to the ladder whose bots played the fewest games
    lately, among those with free bots for one more table; ties go to the lower id."""
    given = dict.fromkeys((load.ladder_id for load in loads), 0)
    for _ in range(matches):
        open_ladders = [
            load for load in loads if (given[load.ladder_id] + 1) * load.players <= load.free
        ]
        if not open_ladders:
            break
        neediest = min(
            open_ladders,
            key=lambda load: (load.games_per_bot(given[load.ladder_id]), load.ladder_id),
        )
        given[neediest.ladder_id] += 1
    return {ladder_id: count for ladder_id, count in given.items() if count}


def _anchor_weight(candidate: Candidate) -> float:
    if candidate.deviation is None:
        return 1.0 / (1.0 + candidate.version_games) + 0.05
    return (candidate.deviation / UNKNOWN_DEVIATION) ** 2 + 0.05


def _variance(candidate: Candidate) -> float:
    deviation = UNKNOWN_DEVIATION if candidate.deviation is None else candidate.deviation
    return deviation**2


def match_quality(one: Candidate, other: Candidate) -> float:
    """TrueSkill's 2-player match quality, on the Elo scale: the chance of a draw if
    the two were equal, relative to it for two sure and equal ratings; near 1 for an
    open game, near 0 for a foregone one."""
    spread = 2 * PERFORMANCE_SPREAD**2
    total = spread + _variance(one) + _variance(other)
    return math.sqrt(spread / total) * math.exp(-((one.rating - other.rating) ** 2) / (2 * total))


def pick_tables(
    candidates: Sequence[Candidate],
    players: int,
    tables: int,
    rng: Random,
    met: Mapping[Pair, int] | None = None,
) -> list[list[int]]:
    """Up to `tables` tables of `players` distinct bots (by bot id), none seating a pair
    that `met` (meetings by pair) counts MAX_MEETINGS times already, nor two bots of one
    owner."""
    met = met or {}
    free = {c.bot_id: c for c in candidates}
    chosen: list[list[int]] = []
    overdue = sorted((c for c in candidates if c.overdue), key=lambda c: c.bot_id)
    while len(chosen) < tables and len(free) >= players:
        anchor = _next_anchor(free, overdue, rng)
        if anchor is None:
            break
        table = _seat_opponents(anchor, free, players, rng, met)
        if table is None:
            continue  # nobody left may meet this anchor; the others may still play
        for bot_id in table:
            free.pop(bot_id, None)
        rng.shuffle(table)
        chosen.append(table)
    return chosen


def _next_anchor(
    free: dict[int, Candidate], overdue: list[Candidate], rng: Random
) -> Candidate | None:
    """The next overdue bot still free, else one drawn by uncertainty; taken from `free`."""
    while overdue:
        waiting = overdue.pop(0)
        if waiting.bot_id in free:
            return free.pop(waiting.bot_id)
    if not free:
        return None
    pool = sorted(free.values(), key=lambda c: c.bot_id)
    anchor = rng.choices(pool, weights=[_anchor_weight(c) for c in pool])[0]
    return free.pop(anchor.bot_id)


def _seat_opponents(
    anchor: Candidate,
    free: dict[int, Candidate],
    players: int,
    rng: Random,
    met: Mapping[Pair, int],
) -> list[int] | None:
    """The anchor and its opponents, or None if too few free bots may meet them all."""
    table = [anchor]
    for _ in range(players - 1):
        seated = {c.bot_id for c in table}
        allowed = [
            c
            for c in free.values()
            if c.bot_id not in seated
            and all(met.get(pair(c.bot_id, s.bot_id), 0) < MAX_MEETINGS for s in table)
            and not any(same_owner(c, s) for s in table)
        ]
        if not allowed:
            return None
        allowed.sort(key=lambda c: c.bot_id)
        power = QUALITY_POWER[2 if players == 2 else 4]
        odds = [min(match_quality(c, s) for s in table) ** power for c in allowed]
        table.append(rng.choices(allowed, weights=odds)[0])
    return [c.bot_id for c in table]
