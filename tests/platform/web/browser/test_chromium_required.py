"""The browser tests without Chromium: skipped on a developer's machine, failed where
AGON_TEST_REQUIRE names chromium (tests.required)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.platform.web.browser import conftest as browser_conftest
from tests.required import REQUIRE_VARIABLE


@pytest.mark.parametrize(("required", "outcome"), [("", "skip"), ("chromium", "fail")])
def test_the_browser_tests_without_chromium_are_skipped_unless_required(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, required: str, outcome: str
) -> None:
    monkeypatch.setenv(REQUIRE_VARIABLE, required)
    monkeypatch.setattr(browser_conftest, "CHROMIUM", str(tmp_path / "chromium"))
    expected = pytest.fail.Exception if outcome == "fail" else pytest.skip.Exception
    with pytest.raises(expected, match="no Chromium at"):
        browser_conftest.chromium_executable()
