"""Sandbox backends by name; `auto` picks Docker when an engine answers, else bwrap."""

from __future__ import annotations

from sandbox.backends.base import Backend, Box, BoxSpec, SandboxError
from sandbox.backends.bwrap import BwrapBackend
from sandbox.backends.none import NoneBackend

BACKENDS = ("auto", "docker", "bwrap", "none")

__all__ = ["BACKENDS", "Backend", "Box", "BoxSpec", "SandboxError", "get_backend"]


def get_backend(name: str) -> Backend:
    """The backend called `name`, checked to work here; SandboxError with the reason if not."""
    if name == "auto":
        from sandbox.backends.docker import DockerBackend

        docker = DockerBackend()
        try:
            docker.check()
        except SandboxError:
            backend: Backend = BwrapBackend()
        else:
            backend = docker
    elif name == "docker":
        from sandbox.backends.docker import DockerBackend

        backend = DockerBackend()
    elif name == "bwrap":
        backend = BwrapBackend()
    elif name == "none":
        backend = NoneBackend()
    else:
        raise SandboxError(f"unknown sandbox {name!r}; choose one of {', '.join(BACKENDS)}")
    backend.check()
    return backend
