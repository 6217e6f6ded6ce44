"""The Akropolis tests' shared fixture: the compiled core (`engine.akropolis.native`)."""

from __future__ import annotations

from types import ModuleType

import pytest

from engine.akropolis import native
from tests.required import missing


@pytest.fixture
def core(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The compiled core, set up, whatever AGON_PURE_PYTHON says."""
    monkeypatch.delenv(native.PURE_PYTHON_VARIABLE, raising=False)
    module = native.load_core()
    if module is None:
        missing("compiled-core", "Akropolis' compiled core is not built here (`make venv`)")
    return module
