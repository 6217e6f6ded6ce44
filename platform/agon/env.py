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
