"""The platform each scenario runs against: `agon up` on one stack, started once for the
whole test run (tests.acceptance.platforms), with short beat intervals so that rounds and
matchmaking follow one another within a second or two.

Both stacks need bubblewrap: missing, the suite is skipped, or fails where
AGON_TEST_REQUIRE names bwrap (tests.required), as under `make test`.
"""

from __future__ import annotations

import pytest

from tests.acceptance.platforms import EMBEDDED, PRODUCTION_PARTS, platform_for, shared_folder
from tests.acceptance.support import AgonUp
from tests.sandbox.support import require_backend


@pytest.fixture(scope="session", params=[EMBEDDED, PRODUCTION_PARTS])
def agon(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> AgonUp:
    """`agon up` on one stack, serving; stopped at the end of the run."""
    require_backend("bwrap")
    return platform_for(request.param, shared_folder(request.config, tmp_path_factory))
