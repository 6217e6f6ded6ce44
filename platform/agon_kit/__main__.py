"""`agon-kit`: the bot kit's command (the wheel `make kit` builds): the commands of `agon`
that need neither Django nor the rest of the platform: `play`, `view`, `replay` and
`match` on the author's machine, `login`, `submit` and `test` with a site."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from agon.cli import main as agon_main

KIT_COMMANDS = ("play", "match", "view", "replay", "score", "login", "submit", "test")


def main(argv: Sequence[str] | None = None) -> int:
    return agon_main(argv, commands=KIT_COMMANDS, prog="agon-kit")


if __name__ == "__main__":
    sys.exit(main())
