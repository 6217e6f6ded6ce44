"""Parts of the machine a test needs, skipped where missing, except where required.

Some tests need real parts of the machine: a sandbox backend (bwrap, docker), cgroups
for boxes, root, Chromium, a compose command, the compiled cores (built by `make venv`
where the machine has a C compiler and Python's headers). On a developer's machine a test whose part
is missing is skipped, saying why. Where AGON_TEST_REQUIRE names the part (a comma
separated list, or `all`), its absence fails the test instead: `make test`, which CI
runs, requires them all, so a CI machine that lost Docker cannot pass with the Docker
tests skipped.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

from sandbox.backends import ISOLATING_BACKENDS

REQUIRE_VARIABLE = "AGON_TEST_REQUIRE"
PARTS = (*ISOLATING_BACKENDS, "cgroups", "root", "chromium", "compose", "compiled-core")
"""Each sandbox that isolates (its tests need it to work here), then the other parts."""


def required_parts() -> frozenset[str]:
    """The parts AGON_TEST_REQUIRE names; a name it does not know stops the run."""
    names = {name.strip() for name in os.environ.get(REQUIRE_VARIABLE, "").split(",")}
    names.discard("")
    if "all" in names:
        return frozenset(PARTS)
    unknown = sorted(names - set(PARTS))
    if unknown:
        raise pytest.UsageError(
            f"{REQUIRE_VARIABLE}: unknown part {', '.join(unknown)}; "
            f"name some of {', '.join(PARTS)}, or all"
        )
    return frozenset(names)


def missing(part: str, reason: str) -> NoReturn:
    """Skip the test, saying why, or fail it where `part` is required."""
    assert part in PARTS, part
    if part in required_parts():
        pytest.fail(
            f"{part} is required here ({REQUIRE_VARIABLE}) but missing: {reason}",
            pytrace=False,
        )
    pytest.skip(reason)
