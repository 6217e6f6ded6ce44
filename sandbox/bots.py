"""Turn a bot spec from the command line into a `Bot`: `builtin:NAME` or a program's path."""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from engine.bots import BUILTIN_BOTS, builtin_bot
from engine.players import Bot
from sandbox.process_bot import ProcessBot

SANDBOXES = ("auto", "docker", "bwrap", "none")


class BotSpecError(ValueError):
    pass


@dataclass(frozen=True)
class ResolvedBot:
    bot: Bot
    bot_id: str
    """What the replay records: `builtin:NAME`, or the file's name and content hash."""


def resolve_bot(spec: str, *, game_id: str, seed: int, seat: int, sandbox: str) -> ResolvedBot:
    if spec.startswith("builtin:"):
        name = spec.removeprefix("builtin:")
        if name not in BUILTIN_BOTS:
            raise BotSpecError(
                f"unknown builtin bot {name!r}; builtin bots: {', '.join(BUILTIN_BOTS)}"
            )
        return ResolvedBot(builtin_bot(name, game_id, seed, seat), spec)
    path = Path(spec)
    if not path.is_file():
        raise BotSpecError(f"bot {spec!r} is neither builtin:random, builtin:greedy nor a file")
    if sandbox != "none":
        raise BotSpecError(
            f"cannot run {spec} in a '{sandbox}' sandbox yet: the sandbox backends are not built; "
            "run trusted local code with --sandbox none"
        )
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    bot = ProcessBot([sys.executable, path.name], cwd=path.resolve().parent, env=env)
    return ResolvedBot(bot, f"file:{path.name}@sha256:{digest}")
