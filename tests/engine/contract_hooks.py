"""What the game contract (test_game_contract.py) needs told about each game, because
only the game's own tests know it: what its players cannot see, and how its ranks
follow from the scores and details of its result.

A registered game without hooks here fails the contract, saying so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core import MatchResult
from engine.rng import SplitMix64
from tests.engine import support as akropolis
from tests.engine.architekton import support as architekton
from tests.engine.attika import support as attika
from tests.engine.megalopolis import support as megalopolis


@dataclass(frozen=True)
class ContractHooks:
    redeal_hidden: Callable[[Any, int, SplitMix64], Any]
    """A new state that `viewer` cannot tell from the given one: everything hidden from
    them (face-down piles, others' hands, the seed...) dealt anew from the generator."""
    rank_keys: Callable[[MatchResult], list[tuple[int, ...]]]
    """Each seat's sort key (higher is better) read from the result's scores and
    details; the ranks must be the competition ranks of these keys."""


HOOKS: dict[str, ContractHooks] = {
    "akropolis": ContractHooks(akropolis.redeal_hidden, akropolis.rank_keys),
    "architekton": ContractHooks(architekton.redeal_hidden, architekton.rank_keys),
    "attika": ContractHooks(attika.redeal_hidden, attika.rank_keys),
    "megalopolis": ContractHooks(megalopolis.redeal_hidden, megalopolis.rank_keys),
}


def hooks_for(game_id: str) -> ContractHooks:
    hooks = HOOKS.get(game_id)
    assert hooks is not None, (
        f"the game contract needs to know what {game_id} hides and how it ranks: "
        "add its ContractHooks to tests/engine/contract_hooks.py"
    )
    return hooks
