"""`agon view REPLAY.json [-o FILE.html]`: a replay as one HTML file that plays it offline.

The file holds everything it needs: the site's own viewer (viewer.js), the game's
renderer and the site's CSS, read from agon_kit.viewer at run time (the files the site
serves, so it always shows what the site shows), and the replay's timeline
(`engine.timeline`, the same steps the site's `GET /api/matches/{id}/timeline/` gives) as
inline JSON. It asks the network for nothing: the viewer's one request, for the
timeline, is answered from the page itself.

Neither Django nor the platform is needed: the bot kit's `agon-kit view` is this command.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
import tempfile
import webbrowser
from collections import Counter
from pathlib import Path
from string import Template
from typing import Any

from agon_kit import viewer
from agon_kit.common import fail
from engine.core import JSON
from engine.registry import UnknownGame, get_spec
from engine.replay import Replay, ReplayError
from engine.timeline import timeline_steps

STATIC_DIR = viewer.STATIC_DIR / "web"
"""The site's static files (agon.css, zoom.js, viewer.js, games/<renderer>.js)."""
FRAGMENT_DIR = viewer.TEMPLATES_DIR / "web"
"""The viewer's controls and side panels, plain HTML that the match page includes too
(_viewer_controls.html, _viewer_side.html): one copy of what viewer.js expects."""
PAGE_DIR = viewer.OFFLINE_DIR
"""The page (page.html, a string.Template) and the script that answers the viewer's
request for the timeline from the page (fetch.js)."""
TIMELINE_URL = "agon-offline:timeline"
"""What the page's viewer asks for its timeline; answered by fetch.js."""
LABEL_CHARS = 60
"""A seat's label is the bot id of the replay, cut to this many characters."""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "view",
        help="write a replay as one HTML file that plays it offline",
        description="Write REPLAY.json (from `agon play --replay` or a match page's "
        "Replay JSON) as one self-contained HTML file: the site's replay viewer, "
        "playing it in any browser without a network.",
    )
    parser.add_argument("replay", type=Path, metavar="REPLAY.json")
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="FILE.html",
        help="where to write it (default: the replay's name with .html, next to it)",
    )
    parser.add_argument("--open", action="store_true", help="open it in a web browser")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        replay = Replay.load(args.replay)
        page = replay_page(replay)
    except (ReplayError, UnknownGame, OSError, ValueError) as error:
        return fail(str(error))
    output = args.output or args.replay.with_suffix(".html")
    try:
        output = write_page(page, output)
    except OSError as error:
        return fail(f"cannot write the page: {error}")
    print(f"replay viewer written to {output}")
    if args.open:
        open_page(output)
    return 0


def write_page(page: str, output: Path) -> Path:
    """Writes the page to `output`, or to a temporary file when that folder cannot be
    written (a replay in a read-only place); gives back where it went."""
    try:
        output.write_text(page, encoding="utf-8")
    except PermissionError:
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", prefix="agon-replay-", suffix=".html", delete=False
        ) as temporary:
            temporary.write(page)
        return Path(temporary.name)
    return output


def open_page(path: Path) -> None:
    """In the user's browser; without one, say where the file is."""
    url = path.resolve().as_uri()
    if not webbrowser.open(url):
        print(f"no web browser to open here: open {url} in one", file=sys.stderr)


def replay_page(
    replay: Replay, steps: list[dict[str, JSON]] | None = None, caption: str = ""
) -> str:
    """The whole HTML page of a replay (ReplayError if it does not play through the
    engine, UnknownGame if its game is not this engine's). `steps`, if given, is the
    timeline shown instead of the replay's (the training environments' `render()` shows
    one step, the position now); `caption`, if given, is said above the board instead
    of the match's status ("Finished: N moves.")."""
    spec = get_spec(replay.game)
    renderer = spec.renderer or "text"
    if steps is None:
        steps = timeline_steps(replay, reveal=True)
    result = replay.result or {}
    timeline: dict[str, JSON] = {
        "game": replay.game,
        "status": "finished",
        "players": replay.players,
        "final": True,
        "total": len(steps),
        "since": 0,
        "steps": steps,
        "result": result,
        "error": "",
    }
    if caption:
        timeline["caption"] = caption
    bots = _bots(replay)
    labels = _labels(bots)
    scripts = [
        (PAGE_DIR / "fetch.js").read_text(encoding="utf-8"),
        _static_text("zoom.js"),
        _static_text("viewer.js"),
    ]
    if renderer != "text":
        scripts.append(_static_text(f"games/{renderer}.js"))
    faults = {int(fault["seat"]): str(fault["kind"]) for fault in replay.faults}
    page = Template((PAGE_DIR / "page.html").read_text(encoding="utf-8"))
    return page.substitute(
        title=html.escape(f"{spec.name}, seed {replay.seed}"),
        heading=html.escape(spec.name),
        subtitle=html.escape(f"{replay.players} players, seed {replay.seed}"),
        meta=html.escape(
            f"{len(replay.actions)} actions · engine {replay.engine_version}"
            + (f" · options: {_options_text(replay.options)}" if replay.options else "")
        ),
        seat_rows="\n".join(
            _seat_row(seat, bot, result, faults.get(seat)) for seat, bot in enumerate(bots)
        ),
        controls=_fragment("_viewer_controls.html"),
        side=_fragment("_viewer_side.html"),
        timeline_url=TIMELINE_URL,
        game=html.escape(replay.game),
        renderer=html.escape(renderer),
        css=_inline(_static_text("agon.css"), "style"),
        labels_json=script_json(labels),
        timeline_json=script_json(timeline),
        scripts="\n".join(f"<script>\n{_inline(text, 'script')}\n</script>" for text in scripts),
    )


def script_json(value: JSON) -> str:
    """JSON that stays inside its <script> element whatever its strings hold: `<`, `>`
    and `&` as escapes (as Django's json_script), so no `</script>` or `<!--` can appear."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _fragment(name: str) -> str:
    return (FRAGMENT_DIR / name).read_text(encoding="utf-8")


def _bots(replay: Replay) -> list[str]:
    return [str(bot) for bot in replay.bots] or [f"seat {seat}" for seat in range(replay.players)]


FILE_ID = re.compile(r"file:(?P<name>.+)@sha256:(?P<digest>[0-9a-f]+)")
"""A bot file's id as `agon play` writes it: its name and the start of its SHA-256."""


def _person_name(bot: str) -> tuple[str, str]:
    """A bot id as a person names it, and the short digest of its file ("" if none):
    `file:my_bot.py@sha256:0123…` is `my_bot.py`, `0123456`."""
    found = FILE_ID.fullmatch(bot)
    if not found:
        return bot, ""
    return found["name"], found["digest"][:7]


def _labels(bots: list[str]) -> list[str]:
    """The seats' labels: the bots' names, with the short digest where two would read alike."""
    named = [_person_name(bot) for bot in bots]
    counts = Counter(name for name, _ in named)
    return [
        _label(f"{name} · {digest}" if digest and counts[name] > 1 else name, seat)
        for seat, (name, digest) in enumerate(named)
    ]


def _options_text(options: dict[str, Any]) -> str:
    """The match's options as a list to read: `variant: all_tiles, fast: yes`."""

    def shown(value: Any) -> str:
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, str | int | float) or value is None:
            return str(value)
        return json.dumps(value, sort_keys=True)

    return ", ".join(f"{key}: {shown(value)}" for key, value in sorted(options.items()))


def _label(bot: str, seat: int) -> str:
    text = " ".join(bot.split()) or f"seat {seat}"
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"


def _seat_row(seat: int, bot: str, result: dict[str, Any], fault: str | None) -> str:
    name, digest = _person_name(bot)
    label = _label(name, seat)
    small = f' <small class="muted">sha256 {html.escape(digest)}</small>' if digest else ""
    ranks, scores = result.get("ranks") or [], result.get("scores") or []
    rank = str(ranks[seat]) if seat < len(ranks) else "\N{EN DASH}"
    score = str(scores[seat]) if seat < len(scores) else "\N{EN DASH}"
    fault_cell = f'<span class="badge badge-fault">{html.escape(fault)}</span>' if fault else ""
    return (
        f'    <tr><td><span class="seat-chip seat-{seat % 6}" aria-hidden="true"></span>{seat}</td>'
        f'<td><span title="{html.escape(bot)}">{html.escape(label)}</span>{small}</td>'
        f"<td>{html.escape(rank)}</td>"
        f'<td class="num">{html.escape(score)}</td><td>{fault_cell}</td></tr>'
    )


def _static_text(name: str) -> str:
    return (STATIC_DIR / name).read_text(encoding="utf-8")


def _inline(text: str, element: str) -> str:
    """Our own CSS or JS inside its element: it must not end that element early."""
    if f"</{element}" in text.lower():
        raise ValueError(f"a static file holds </{element}> and cannot be inlined")
    return text
