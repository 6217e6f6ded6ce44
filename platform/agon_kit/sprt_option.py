"""`--sprt elo0=0,elo1=50,alpha=0.05,beta=0.05`: a sequential test's settings as typed,
for `match` (played here) and `test` (played by the site)."""

from __future__ import annotations

import argparse

from competition.sprt import Sprt


def parse_sprt(text: str) -> Sprt:
    values: dict[str, float] = {}
    for part in filter(None, text.split(",")):
        key, sep, value = part.partition("=")
        if not sep or key not in ("elo0", "elo1", "alpha", "beta"):
            raise argparse.ArgumentTypeError(f"--sprt takes elo0, elo1, alpha, beta, not {part!r}")
        try:
            values[key] = float(value)
        except ValueError as error:
            raise argparse.ArgumentTypeError(f"{key} must be a number, not {value!r}") from error
    try:
        return Sprt(**values)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from error
