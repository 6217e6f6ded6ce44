"""tests.required: a missing part of the machine skips its tests on a developer's machine
and fails them where AGON_TEST_REQUIRE names it (as `make test` does for all). The
browser fixture's case is in tests/platform/web/browser/test_chromium_required.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.required import PARTS, REQUIRE_VARIABLE, missing, required_parts
from tests.sandbox.support import require_backend


def test_it_skips_a_missing_part_nobody_requires(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(REQUIRE_VARIABLE, raising=False)
    with pytest.raises(pytest.skip.Exception, match="no docker here"):
        missing("docker", "no docker here")


def test_it_fails_a_missing_part_that_is_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(REQUIRE_VARIABLE, "bwrap, docker")
    with pytest.raises(pytest.fail.Exception, match=r"docker is required here .*no docker here"):
        missing("docker", "no docker here")
    with pytest.raises(pytest.skip.Exception):
        missing("chromium", "no chromium here")


def test_all_requires_every_part(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(REQUIRE_VARIABLE, "all")
    assert required_parts() == frozenset(PARTS)


def test_it_refuses_a_part_it_does_not_know(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(REQUIRE_VARIABLE, "bwrap,dokcer")
    with pytest.raises(pytest.UsageError, match="unknown part dokcer"):
        required_parts()


@pytest.mark.parametrize(("required", "outcome"), [("", "skip"), ("bwrap", "fail")])
def test_a_sandbox_arena_without_bubblewrap_is_skipped_unless_required(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, required: str, outcome: str
) -> None:
    monkeypatch.setenv(REQUIRE_VARIABLE, required)
    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap executable on it
    expected = pytest.fail.Exception if outcome == "fail" else pytest.skip.Exception
    with pytest.raises(expected, match="bubblewrap is not installed"):
        require_backend("bwrap")
