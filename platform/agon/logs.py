"""Logs: plain text for a person at a terminal (`agon up`), JSON lines for a machine.

`AGON_LOG_FORMAT` chooses (see the settings): `plain` is the default of the embedded
setup, `json` that of production. A JSON line has `timestamp` (UTC, ISO 8601), `level`,
`logger` and `message`, then whatever the code logging added (`extra=`) and the fields of
the current context: `log_context(match_id=...)` around a match, the task's id and name
around every Celery task, the method and path around every request (the request line
itself, written by `RequestLogMiddleware`, adds the status and the duration).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar, Token
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the settings import this module: it must not load Django's parts
    from django.http import HttpRequest, HttpResponseBase

LOG_FORMATS = ("plain", "json")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

_context: ContextVar[Mapping[str, object]] = ContextVar(
    "agon_log_context", default=MappingProxyType({})
)

requests_log = logging.getLogger("agon.requests")


def logging_config(*, log_format: str, level: str) -> dict[str, Any]:
    """The LOGGING setting: every record through one handler on the root logger."""
    if log_format not in LOG_FORMATS:
        raise ValueError(f"a log format is one of {', '.join(LOG_FORMATS)}, not {log_format!r}")
    handler: dict[str, Any] = (
        # A machine reads stdout: one JSON object a line.
        {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stdout"}
        if log_format == "json"
        else {"class": "logging.StreamHandler", "formatter": "plain"}
    )
    handler["filters"] = ["context"]
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "agon.logs.ContextFilter"}},
        "formatters": {
            "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
            "json": {
                "()": "pythonjsonlogger.json.JsonFormatter",
                "fmt": ["levelname", "name", "message"],
                "rename_fields": {"levelname": "level", "name": "logger"},
                "timestamp": True,
            },
        },
        "handlers": {"console": handler},
        "root": {"handlers": ["console"], "level": level},
    }


@contextlib.contextmanager
def log_context(**fields: object) -> Iterator[None]:
    """Every record logged inside the block carries these fields (JSON logs show them)."""
    token = _context.set({**_context.get(), **fields})
    try:
        yield
    finally:
        _context.reset(token)


def log_context_enter(**fields: object) -> Token[Mapping[str, object]]:
    """`log_context` for code that opens and closes in separate calls (signals): give
    the token back to `log_context_exit`."""
    return _context.set({**_context.get(), **fields})


def log_context_exit(token: Token[Mapping[str, object]]) -> None:
    _context.reset(token)


class ContextFilter(logging.Filter):
    """Adds the fields of the current `log_context` to each record (the record's own
    fields win: `extra=` is more specific than the context)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in _context.get().items():
            if key not in record.__dict__:
                setattr(record, key, value)
        return True


class RequestLogMiddleware:
    """One line per request (method, path, status, duration in ms) on `agon.requests`;
    records logged while the request is handled carry its method and path.

    Successful requests to the paths in AGON_REQUEST_LOG_QUIET_PATHS (health checks and
    metrics scrapes, a few a second) are not logged; their failures are.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        # Here, not at the top: the settings import this module (see TYPE_CHECKING above).
        from django.conf import settings

        self.get_response = get_response
        quiet: Sequence[str] = getattr(settings, "AGON_REQUEST_LOG_QUIET_PATHS", ())
        self.quiet_paths = frozenset(quiet)

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        with log_context(method=request.method, path=request.path):
            response = self.get_response(request)
            status = response.status_code
            if status >= 400 or request.path not in self.quiet_paths:
                duration_ms = round((time.perf_counter() - started) * 1000, 1)
                # INFO even for a 5xx: django.request logs its error with the traceback.
                requests_log.info(
                    "%s %s %s %.1f ms",
                    request.method,
                    request.path,
                    status,
                    duration_ms,
                    extra={"status": status, "duration_ms": duration_ms},
                )
        return response
