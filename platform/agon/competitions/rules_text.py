"""The rules a competition's page states, written from its fields, so that they cannot
drift from what the platform does: the bots' limits, entries and the freeze, the final's
format, seeding and seats, and the tie-breaks, in the order they apply."""

from __future__ import annotations

import importlib

from agon.competitions.models import Competition
from agon.sandboxing import limits_for
from competition.formats.registry import UnknownFormat, get_format
from engine.registry import get_game

TIEBREAK_WORDS = {
    "buchholz_cut1": "Buchholz cut 1 (opponents' points, the lowest left out)",
    "buchholz": "Buchholz (opponents' points)",
    "sonneborn_berger": "Sonneborn-Berger (points of the opponents beaten)",
    "direct_encounter": "direct encounter (the games between the tied bots)",
    "wins": "wins",
}


def _tiebreaks(format_name: str) -> list[str]:
    """The format's tie-breaks in order, as its module lists them (`TIEBREAKS`)."""
    try:
        kind = get_format(format_name)
    except UnknownFormat:
        return []
    names = getattr(importlib.import_module(kind.__module__), "TIEBREAKS", ())
    return [TIEBREAK_WORDS.get(str(name), str(name)) for name in names]


def rule_lines(competition: Competition) -> list[tuple[str, str]]:
    """(heading, sentence) pairs, in the order the page shows them."""
    game = get_game(competition.game)
    limits = limits_for(competition.game)
    counts = " and ".join(str(count) for count in competition.player_counts)
    options = ", ".join(f"{key}: {value}" for key, value in sorted(competition.options.items()))
    try:
        label = get_format(competition.final_format).LABEL
    except UnknownFormat:
        label = competition.final_format
    meetings = competition.final_meetings
    tiebreaks = _tiebreaks(competition.final_format)
    lines = [
        (
            "Game",
            f"{game.name}, on a ladder of its own for {counts} players"
            + (f" ({options})" if options else "")
            + "; only bots entered here are rated on it.",
        ),
        (
            "Limits",
            f"each bot has {limits.turn_seconds:g} s a turn ({limits.first_turn_seconds:g} s "
            f"for its first, and a {limits.time_bank_seconds:g} s time bank), "
            f"{limits.memory_bytes // 2**20} MiB of memory and {limits.pids} processes; "
            "a bot that faults (crashes, times out, plays an illegal move) is ranked last in "
            "that game.",
        ),
        (
            "Entries",
            "enter any of your bots with an active version until the freeze; each version "
            "it validates until then plays for it. At the freeze the active version of "
            "every entrant is locked: later uploads play on the open ladders, not here.",
        ),
        (
            "Final",
            f"a {label.lower()} of the top {competition.final_size} of the "
            f"{competition.final_players}-player ladder when the final starts, seeded in "
            "the ladder's order (its leader first), each on its locked version; "
            f"{meetings} meeting{'s' if meetings != 1 else ''} a table, a meeting being one "
            "game for each rotation of the seats, so every bot plays every seat"
            + (f"; {competition.final_rounds} rounds" if competition.final_rounds else "")
            + ". Its games move no rating.",
        ),
        (
            "Tie-breaks",
            "on the ladder, the rating (its cautious estimate), then who entered first; "
            "in the final, points, then "
            + (", then ".join(tiebreaks) if tiebreaks else "the format's own order")
            + ".",
        ),
        (
            "Archive",
            "when the final ends its standings, every game and each entrant's version "
            "digest are copied for good; replays keep the rules version they were played "
            "under.",
        ),
    ]
    return lines
