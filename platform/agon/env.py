"""Reading settings from the environment: typed, read once, loud about bad values."""

from __future__ import annotations

import os
from collections.abc import Sequence
from urllib.parse import urlsplit


class EnvError(ValueError):
    pass


def env_str(name: str, default: str) -> str:
    value = os.environ.get(name, "")
    return value if value != "" else default


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if value == "":
        return default
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise EnvError(f"{name} must be true or false, not {os.environ[name]!r}")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise EnvError(f"{name} must be an integer, not {value!r}") from None


def env_float(name: str, default: float) -> float:
    value = os.environ.get(name, "").strip()
    if value == "":
        return default
    try:
        return float(value)
    except ValueError:
        raise EnvError(f"{name} must be a number, not {value!r}") from None


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name, "")
    if value.strip() == "":
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_choice(name: str, choices: Sequence[str], default: str) -> str:
    """One of `choices` (compared without case), or `default` when unset."""
    value = os.environ.get(name, "").strip()
    if value == "":
        return default
    for choice in choices:
        if value.lower() == choice.lower():
            return choice
    raise EnvError(f"{name} must be one of {', '.join(choices)}, not {value!r}")


def env_url(name: str, default: str, *, schemes: Sequence[str]) -> str:
    """An absolute URL with one of these schemes and a host, or `default` when unset."""
    value = os.environ.get(name, "").strip()
    if value == "":
        return default
    parts = urlsplit(value)
    if parts.scheme not in schemes or not parts.hostname:
        raise EnvError(f"{name} must be a URL like {schemes[0]}://host:port, not {value!r}")
    return value


def env_required(name: str) -> str:
    value = os.environ.get(name, "")
    if value == "":
        raise EnvError(f"{name} must be set")
    return value


RATE_PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}


def parse_rate(text: str) -> tuple[int, int] | None:
    """`N/period` (period: second, minute, hour or day, or its first letter, optionally
    after a count: `5/15minute` is 5 per 15 minutes) as (N, seconds); `off` is None."""
    text = text.strip().lower()
    if text == "off":
        return None
    count, _, period = text.partition("/")
    digits = period[: len(period) - len(period.lstrip("0123456789"))]
    unit = period[len(digits) :]
    names = [name for name in RATE_PERIODS if unit in (name, name[0], name + "s")]
    if not count.isdigit() or int(count) < 1 or not names or digits.startswith("0"):
        raise ValueError(f"a rate is like 20/hour, 5/15minute or off, not {text!r}")
    return int(count), int(digits or 1) * RATE_PERIODS[names[0]]


def env_rate(name: str, default: str) -> str:
    """A rate limit like `20/hour` (see parse_rate), checked now, or `default` when unset."""
    value = env_str(name, default).strip()
    try:
        parse_rate(value)
    except ValueError as error:
        raise EnvError(f"{name}: {error}") from None
    return value
