"""The table of sandbox backends: every entry loads its backend, `auto` explains itself."""

from __future__ import annotations

import sys

import pytest

from sandbox.backends import (
    AUTO_ORDER,
    BACKENDS,
    ISOLATING_BACKENDS,
    SandboxError,
    _construct,
    get_backend,
)


@pytest.mark.parametrize("name", [name for name in BACKENDS if name != "auto"])
def test_each_entry_makes_the_backend_of_its_name(name: str) -> None:
    assert _construct(name).name == name


def test_only_isolating_backends_may_run_untrusted_code() -> None:
    assert "none" not in ISOLATING_BACKENDS
    assert set(AUTO_ORDER) <= set(ISOLATING_BACKENDS)


def test_an_unknown_name_lists_the_choices() -> None:
    with pytest.raises(SandboxError, match="unknown sandbox 'dockr'; choose one of auto, docker"):
        get_backend("dockr")


def test_auto_says_why_each_backend_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: object) -> None:
        raise SandboxError(f"{type(self).__name__} refused")

    for name in AUTO_ORDER:
        monkeypatch.setattr(type(_construct(name)), "check", refuse)
    with pytest.raises(SandboxError) as raised:
        get_backend("auto")
    assert str(raised.value) == (
        "no sandbox works here (docker: DockerBackend refused; bwrap: BwrapBackend refused)"
    )


def test_a_backend_whose_python_package_is_missing_is_refused_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As in the bot kit, which installs no docker SDK: `auto` goes on to the next one."""
    monkeypatch.setitem(sys.modules, "docker", None)  # `import docker` now fails
    monkeypatch.delitem(sys.modules, "sandbox.backends.docker", raising=False)
    with pytest.raises(SandboxError, match="it needs the Python package 'docker'"):
        get_backend("docker")
