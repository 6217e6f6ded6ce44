"""Talking to an Agon site from the command line (`agon-kit login`, `submit`, `test`):
its address, the user's API token, and JSON requests with one clear line for every way
they fail. Standard library only: the bot kit installs no other package."""

from __future__ import annotations

import json
import os
import stat
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_SERVER = "http://127.0.0.1:8000"
"""What `make run` serves."""
SERVER_VARIABLE = "AGON_SERVER"
TOKEN_VARIABLE = "AGON_TOKEN"  # noqa: S105 - the variable's name, not a token
TIMEOUT_SECONDS = 60
MAX_ANSWER_BYTES = 8 * 1024 * 1024


class RemoteError(Exception):
    """A request that did not give what was asked; the message is for the user as it is."""


def token_file() -> Path:
    """Where `agon-kit login` keeps the token: $XDG_CONFIG_HOME/agon/token."""
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "agon" / "token"


def save_token(token: str) -> Path:
    """The token in its file, readable by its owner only."""
    path = token_file()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(token.strip() + "\n")
    path.chmod(stat.S_IRUSR | stat.S_IWUSR)
    return path


def find_token(given: str | None) -> str | None:
    """--token, else $AGON_TOKEN, else the token file's."""
    if given:
        return given.strip()
    if os.environ.get(TOKEN_VARIABLE):
        return os.environ[TOKEN_VARIABLE].strip()
    try:
        return token_file().read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


def find_server(given: str | None) -> str:
    return (given or os.environ.get(SERVER_VARIABLE) or DEFAULT_SERVER).rstrip("/")


@dataclass(frozen=True)
class Site:
    """An Agon site and the token its requests carry."""

    url: str
    token: str | None

    def page(self, path: str) -> str:
        return f"{self.url}{path}"

    def get(self, path: str, **query: Any) -> Any:
        given = {key: value for key, value in query.items() if value is not None}
        suffix = f"?{urllib.parse.urlencode(given)}" if given else ""
        return self._send("GET", f"{path}{suffix}", None, {})

    def post(self, path: str, data: dict[str, Any]) -> Any:
        body = json.dumps(data).encode()
        return self._send("POST", path, body, {"Content-Type": "application/json"})

    def post_file(self, path: str, fields: dict[str, str], filename: str, content: bytes) -> Any:
        """A multipart form with `fields` and the file as `file`."""
        boundary = f"agon-{uuid.uuid4().hex}"
        parts: list[bytes] = []
        for name, value in fields.items():
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
                f"{value}\r\n".encode()
            )
        quoted = filename.replace('"', "_").replace("\r", "_").replace("\n", "_")
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="{quoted}"\r\nContent-Type: application/octet-stream\r\n\r\n'.encode()
            + content
            + b"\r\n"
        )
        parts.append(f"--{boundary}--\r\n".encode())
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
        return self._send("POST", path, b"".join(parts), headers)

    def _send(self, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> Any:
        headers = {"Accept": "application/json", **headers}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        request = urllib.request.Request(  # noqa: S310 - the user's own server, http(s) only
            self.page(path), data=body, headers=headers, method=method
        )
        if urllib.parse.urlsplit(request.full_url).scheme not in ("http", "https"):
            raise RemoteError(
                f"the server's address must start with http:// or https://: {self.url}"
            )
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as answer:  # noqa: S310
                return _json_of(answer.read(MAX_ANSWER_BYTES + 1), self.url)
        except urllib.error.HTTPError as error:
            raise RemoteError(self._refusal(error)) from None
        except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
            reason = getattr(error, "reason", error)
            raise RemoteError(
                f"cannot reach {self.url} ({reason}): is the site up? "
                f"Name another with --server or {SERVER_VARIABLE}"
            ) from None

    def _refusal(self, error: urllib.error.HTTPError) -> str:
        try:
            said = _said(json.loads(error.read(64 * 1024)))
        except (ValueError, OSError):
            said = ""
        code = error.code
        if code == 401:
            where = self.page("/my/token/")
            how = "no token was given" if not self.token else "the server refused the token"
            return f"{how} (401): get yours at {where}, then run `agon-kit login`"
        if code == 403:
            return f"not allowed (403){': ' + said if said else ''}"
        if code == 404:
            return f"not found (404){': ' + said if said else ''}"
        if code == 429:
            return f"too many requests (429){': ' + said if said else ''}; try again later"
        return f"the server refused ({code}){': ' + said if said else ''}"


def _json_of(data: bytes, url: str) -> Any:
    if len(data) > MAX_ANSWER_BYTES:
        raise RemoteError(f"{url} answered with more than {MAX_ANSWER_BYTES} bytes")
    try:
        return json.loads(data)
    except ValueError:
        raise RemoteError(f"{url} did not answer in JSON: is it an Agon site?") from None


def _said(body: Any) -> str:
    """An API error body as one line: its `error` (the API's own summary), else `detail`,
    else each field's first error."""
    if isinstance(body, dict):
        for key in ("error", "detail"):
            if isinstance(body.get(key), str):
                return str(body[key])
        parts = []
        for field, problems in body.items():
            first = problems[0] if isinstance(problems, list) and problems else problems
            parts.append(f"{field}: {first}")
        return "; ".join(parts)
    if isinstance(body, list) and body:
        return str(body[0])
    return ""
