"""`agon-kit`: the bot kit's command (the wheel `make kit` builds): `play`, `view` and
`replay` of `agon`, which need neither Django nor the rest of the platform."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from agon.cli import main as agon_main

KIT_COMMANDS = ("play", "view", "replay")


def main(argv: Sequence[str] | None = None) -> int:
    return agon_main(argv, commands=KIT_COMMANDS, prog="agon-kit")


if __name__ == "__main__":
    sys.exit(main())
