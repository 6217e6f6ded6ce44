"""A match step by step, for the replay viewer: `GET /api/matches/{id}/timeline/`.

The steps come from `engine.timeline` (the replay played again through the engine, each
view a patch of the one before). A finished match's are made once, when it finishes,
and stored beside its replay (`agon.matches.stored_timelines`); a running match's are
made from the moves written so far, and cached, so that a page polling it asks only for
the steps it has not seen (`since`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from django.core.cache import caches

from agon.matches.live import live_actions
from agon.matches.models import Match
from agon.matches.stored_timelines import code_digest, read_steps, timeline_name, write_steps
from engine.core import JSON
from engine.registry import get_game
from engine.replay import Replay, ReplayError
from engine.timeline import apply_patch, seat_observation_patches, timeline_steps, view_patch

__all__ = [
    "apply_patch",
    "match_timeline",
    "seat_observation_patches",
    "timeline_steps",
    "view_patch",
]

log = logging.getLogger(__name__)

TIMELINE_CACHE_SECONDS = 24 * 3600
"""How long a computed timeline is kept, at most: the `timelines` cache is bounded
(settings: a capped Redis, or a number of entries) and drops the least recently used."""


def _made_once(name: str, make: Callable[[], list[Any]]) -> list[Any]:
    """What is stored under `name`: from the cache, else from storage, else made now (and
    stored, once, then cached)."""
    cache = caches["timelines"]
    made: list[Any] | None = cache.get(name)
    if made is None:
        made = read_steps(name)
        if made is None:
            made = make()
            write_steps(name, made)
        cache.set(name, made, TIMELINE_CACHE_SECONDS)
    return made


def _with_observations(
    match: Match, seat: int, steps: list[dict[str, JSON]]
) -> list[dict[str, JSON]]:
    patches = _made_once(
        timeline_name(match.replay.name, match.game, seat),
        lambda: seat_observation_patches(_stored_replay(match), seat),
    )
    return [
        {**step, "observation_patch": patch} for step, patch in zip(steps, patches, strict=True)
    ]


def store_finished_timeline(match_id: int, replay_name: str, replay: Replay) -> None:
    """Make and store a match's timeline as it finishes (the worker, after its commit),
    so that no viewer waits for the engine. Never fails the match: a timeline not stored
    here is made on its first request."""
    try:
        write_steps(timeline_name(replay_name, replay.game), timeline_steps(replay, reveal=True))
    except Exception:
        log.warning("match %s: its timeline was not stored", match_id, exc_info=True)


def finished_steps(match: Match) -> list[dict[str, JSON]]:
    """A finished match's steps: from the cache, else from its stored timeline, else made
    from its replay through the engine (and stored, once). ReplayError if the replay
    cannot be played again."""
    return _made_once(
        timeline_name(match.replay.name, match.game),
        lambda: timeline_steps(_stored_replay(match), reveal=True),
    )


def finished_timeline_json(match: Match, *, since: int = 0) -> bytes:
    """`match_timeline(match, since=since)` of a finished match as the API's JSON (compact,
    UTF-8, U+2028 and U+2029 escaped, as DRF's renderer writes it), made from its steps
    kept as JSON, one piece a step: no step is decoded or encoded again per request. A
    large timeline is several hundred steps and 50-130 KB. ReplayError if its replay
    cannot be played again."""
    parts = _step_parts(match)
    since = max(0, since)
    head = {
        "match": match.id,
        "game": match.game,
        "status": match.status,
        "players": match.players,
        "final": True,
        "total": len(parts),
        "since": since,
    }
    tail = {
        "result": {"scores": match.scores, "ranks": match.ranks, "faults": match.faults},
        "error": "",
    }
    steps = b"[" + b",".join(parts[since:]) + b"]"
    return _json(head)[:-1] + b',"steps":' + steps + b"," + _json(tail)[1:]


def _json(value: object) -> bytes:
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029").encode()


def _step_parts(match: Match) -> list[bytes]:
    """Each of a finished match's steps as JSON: from the cache, else from its stored
    timeline (or made, and stored, as `finished_steps`)."""
    name = timeline_name(match.replay.name, match.game)
    cache = caches["timelines"]
    parts: list[bytes] | None = cache.get(f"{name}:json")
    if parts is None:
        steps = read_steps(name)
        if steps is None:
            steps = finished_steps(match)
        parts = [_json(step) for step in steps]
        cache.set(f"{name}:json", parts, TIMELINE_CACHE_SECONDS)
    return parts


def _stored_replay(match: Match) -> Replay:
    with match.replay.open("rb") as stored:
        return Replay.from_json(json.loads(stored.read()))


def _running_replay(match: Match, actions: list[JSON]) -> Replay:
    return Replay(
        game=match.game,
        engine_version=str(get_game(match.game).rules_version),
        seed=match.seed,
        players=match.players,
        options=dict(match.options),
        bots=[],
        actions=actions,
    )


def match_timeline(match: Match, *, since: int = 0, seat: int | None = None) -> dict[str, JSON]:
    """The timeline document of a match from step `since` on: finished matches from
    their replay, running ones from the moves written so far, queued and failed ones
    without steps. With `seat` (a finished match only: the caller checks), each step
    also has `observation_patch`, what that seat was shown (`seat_observation_patches`).
    Computed steps are cached: a finished match's for good, a running one's per number
    of moves."""
    finished = match.status == Match.Status.FINISHED and bool(match.replay)
    steps: list[dict[str, JSON]] = []
    error = ""
    if finished:
        try:
            steps = finished_steps(match)
        except ReplayError as problem:
            error = str(problem)
        if seat is not None and steps:
            steps = _with_observations(match, seat, steps)
    elif match.status == Match.Status.RUNNING:
        # Before the first write (or while it is rewritten) the table after setup.
        replay = _running_replay(match, live_actions(match.id) or [])
        key = f"agon:running-timeline:{match.id}:{code_digest(match.game)}:{len(replay.actions)}"
        cache = caches["timelines"]
        cached = cache.get(key)
        if cached is None:
            try:
                cached = timeline_steps(replay, reveal=False)
            except ReplayError as problem:
                error = str(problem)
            else:
                cache.set(key, cached, TIMELINE_CACHE_SECONDS)
        steps = cached or []
    since = max(0, since)
    return {
        "match": match.id,
        "game": match.game,
        "status": match.status,
        "players": match.players,
        "final": finished or match.status == Match.Status.FAILED,
        "total": len(steps),
        "since": since,
        "steps": steps[since:],
        "result": (
            {"scores": match.scores, "ranks": match.ranks, "faults": match.faults}
            if finished
            else None
        ),
        "error": error or (match.error if match.status == Match.Status.FAILED else ""),
    }
