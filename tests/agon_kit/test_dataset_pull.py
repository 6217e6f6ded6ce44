"""What `agon-kit dataset pull` takes from a site's answer: a part's name of the expected
shape only (never a path), a size and a SHA-256 of the right form, an address on the
site itself; and its --since."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from agon_kit.dataset import _part, since_date
from agon_kit.remote import RemoteError, Site

SITE = Site("http://agon.test:8000", None)
GOOD = {
    "name": "part-000001-0123456789ab.parquet",
    "size": 10,
    "sha256": "a" * 64,
    "url": "/api/games/akropolis/datasets/files/part-000001-0123456789ab.parquet",
    "built": "2026-11-29T06:00:00+00:00",
}


def test_a_well_formed_part_is_taken() -> None:
    part = _part(GOOD, SITE)
    assert part["path"] == GOOD["url"]
    assert part["name"] == GOOD["name"]


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("name", "../../.bashrc", "strange name"),
        ("name", "part-000001-0123456789ab.parquet/../x", "strange name"),
        ("name", "\x1b]0;pwned\x07", "strange name"),
        ("size", -1, "strange size"),
        ("size", "10", "strange size"),
        ("sha256", "abc", "strange SHA-256"),
        ("url", "http://elsewhere.test/part.parquet", "elsewhere"),
        ("url", "https://agon.test:8000/x", "elsewhere"),
    ],
)
def test_a_strange_part_is_refused(field: str, value: Any, said: str) -> None:
    with pytest.raises(RemoteError, match=said) as refused:
        _part({**GOOD, field: value}, SITE)
    assert "\x1b" not in str(refused.value)


def test_since_takes_a_date_or_a_time_and_refuses_the_rest() -> None:
    assert since_date("2026-11-01").isoformat() == "2026-11-01T00:00:00+00:00"
    assert since_date("2026-11-01T12:00:00+01:00").utcoffset() is not None
    with pytest.raises(argparse.ArgumentTypeError):
        since_date("last week")
