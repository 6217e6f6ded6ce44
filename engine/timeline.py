"""A replay step by step, as the replay viewer shows it (the site's and `agon view`'s).

The replay is played again through the engine (`engine.replay.replay_states`). Step 0 is
the table after setup; step k the table after the k-th action, with that action in words,
who took it, what to highlight and the faults the referee recorded at that turn. Views
come from the game's spectator (`engine.spectator`): everything public, and with `reveal`
(a finished match) also what the players could not see (hands, face-down tiles).

Each step carries its view as a patch of the previous step's view (`view_patch`), so a
long match travels as a small document and a page that polls a running match asks only
for the steps it has not seen. The patch format, applied by the viewer's `applyPatch`:

- a dict patches a dict key by key (keys that did not change are left out);
- `{"$len": n, "$i": {"k": patch}}` patches a list: cut or grow it to n items, then
  patch the items at the given indexes (new items are given whole);
- `{"$set": value}` replaces a dict whose keys changed (and gives step 0 whole);
- anything else (a number, a string, a list, null) replaces the value.
"""

from __future__ import annotations

import json
from typing import Any

from engine.core import JSON, IllegalAction
from engine.registry import get_spec
from engine.replay import Replay, replay_states
from engine.spectator import Explained

_MISSING: Any = object()
_UNCHANGED: Any = object()


def view_patch(before: JSON, after: JSON) -> JSON:
    """The patch that turns `before` into `after` (`_UNCHANGED` if they are equal)."""
    if before is not _MISSING and type(before) is type(after) and before == after:
        return _UNCHANGED
    # Below, what a call would answer without recursing is written out: a part equal to
    # the one before (same type, same value) is unchanged, and any other number, string
    # or null is itself. Most parts of a view are as they were a step before.
    if isinstance(after, dict):
        if isinstance(before, dict) and before.keys() == after.keys():
            changed = {}
            for key, value in after.items():
                old = before[key]
                if type(old) is type(value) and old == value:
                    continue
                changed[key] = view_patch(old, value) if isinstance(value, dict | list) else value
            return changed
        return {"$set": after}
    if isinstance(after, list) and isinstance(before, list):
        items = {}
        kept, most = len(before), len(after) // 2
        for index, value in enumerate(after):
            if index < kept:
                old = before[index]
                if type(old) is type(value) and old == value:
                    continue
                patch = view_patch(old, value) if isinstance(value, dict | list) else value
            else:
                patch = view_patch(_MISSING, value)
            items[str(index)] = patch
            if len(items) > most:
                return after  # more than half the items changed: the list, whole
        return {"$len": len(after), "$i": items}
    return after


def apply_patch(before: JSON, patch: JSON) -> JSON:
    """What the viewer does with a patch (kept here for the tests, as the reference)."""
    if not isinstance(patch, dict):
        return patch
    if "$set" in patch:
        return patch["$set"]
    if "$len" in patch:
        items = list(before[: patch["$len"]])
        for key, value in patch["$i"].items():
            index = int(key)
            if index < len(items):
                items[index] = apply_patch(items[index], value)
            else:
                items.append(apply_patch(_MISSING, value))
        return items
    merged = dict(before)
    for key, value in patch.items():
        merged[key] = apply_patch(before[key], value)
    return merged


def _explain(spectator: Any, state: Any, seat: int, action: JSON) -> Explained:
    try:
        explained: Explained = spectator.explain(state, seat, action)
    except (IllegalAction, ValueError, KeyError, IndexError, TypeError):
        # A description must never stop the replay from showing; the action itself will do.
        return Explained(json.dumps(action, sort_keys=True))
    return explained


def seat_observation_patches(replay: Replay, seat: int) -> list[JSON]:
    """What `seat` was shown at each step (the engine's observation for it, as its bot
    got it), each as a patch of the step before: "view as seat N" in the viewer."""
    game = get_spec(replay.game).game
    patches: list[JSON] = []
    before: JSON = _MISSING
    for state in replay_states(replay):
        observation = game.observation(state, seat)
        patch = view_patch(before, observation)
        patches.append({} if patch is _UNCHANGED else patch)
        before = observation
    return patches


def timeline_steps(replay: Replay, *, reveal: bool) -> list[dict[str, JSON]]:
    """Every step of the replay (ReplayError if it does not play through the engine)."""
    spec = get_spec(replay.game)
    game, spectator = spec.game, spec.spectator()
    faults_at: dict[tuple[int, int], list[dict[str, JSON]]] = {}
    for fault in replay.faults:
        key = (int(fault["seat"]), int(fault["turn"]))
        faults_at.setdefault(key, []).append({"kind": fault["kind"], "detail": fault["detail"]})
    states = replay_states(replay)
    state = next(states)
    view = spectator.view(state, reveal=reveal)
    steps: list[dict[str, JSON]] = [
        {
            "view_patch": view_patch(_MISSING, view),
            "seat": None,
            "action": None,
            "text": "the table after setup",
            "mark": None,
            "faults": [],
        }
    ]
    for action in replay.actions:
        seat = game.current_player(state)
        faults = faults_at.pop((seat, game.turn_number(state)), [])
        explained = _explain(spectator, state, seat, action)
        state = next(states)
        after = spectator.view(state, reveal=reveal)
        patch = view_patch(view, after)
        steps.append(
            {
                "view_patch": {} if patch is _UNCHANGED else patch,
                "seat": seat,
                "action": action,
                "text": explained.text,
                "mark": explained.mark,
                "faults": faults,
            }
        )
        view = after
    # Faults at a turn no action followed (the end of the game) go on the last step.
    for faults in faults_at.values():
        steps_faults = steps[-1]["faults"]
        assert isinstance(steps_faults, list)  # noqa: S101 - built just above
        steps_faults.extend(faults)
    return steps
