"""The datasets' columns, their Parquet types and what each means (the datasheet and
docs/datasets.md show these words), and the schema's version. No pyarrow here: the
pages and the API read it; `agon.datasets.parquet_parts` makes the Arrow schema."""

from __future__ import annotations

from dataclasses import dataclass

SCHEMA_VERSION = 1
"""Raised whenever a column is added, removed or changes meaning."""


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    """The Parquet/Arrow type, as `pyarrow` names it."""
    meaning: str


COLUMNS = (
    Column("match_id", "int64", "the match's id on the site (`/matches/<id>/`)"),
    Column("kind", "string", "`ranked` (a ladder match) or `tournament` (a public tournament's)"),
    Column("rules_version", "string", "the version of the game's rules the match was played by"),
    Column("options", "string", "the match's options, JSON"),
    Column("players", "int8", "how many seats the match had"),
    Column("seat", "int8", "the seat that decided, from 0"),
    Column("step", "int32", "the decision's place in the match, from 0"),
    Column("turn", "int32", "the game's turn number at the decision"),
    Column(
        "bot",
        "string",
        "the bot version that held the seat: `sha256:` and the digest of its archive, "
        "or `builtin:<name>`",
    ),
    Column(
        "by_stand_in",
        "bool",
        "true when the seat's bot had faulted and the referee's random stand-in decided",
    ),
    Column(
        "observation",
        "string",
        "what the seat was shown, as the bot protocol's JSON text: its own view only",
    ),
    Column("legal_actions", "int32", "how many legal actions the seat was offered"),
    Column("action", "string", "the action taken, JSON"),
    Column("action_index", "int32", "its index among the legal actions offered, from 0"),
    Column(
        "time_used_ms",
        "int32",
        "how long the bot took over this decision, in milliseconds, as the referee timed "
        "it; null for a builtin bot, a stand-in's decision, or a match played before the "
        "referee kept each turn's time",
    ),
    Column(
        "seat_thinking_seconds",
        "float64",
        "the seat's thinking time over the whole match; null for a builtin bot",
    ),
    Column("final_rank", "int8", "the seat's final rank, 1 the best (a faulted seat last)"),
    Column("final_score", "int32", "the seat's final score"),
)
