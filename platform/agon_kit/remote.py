"""Talking to an Agon site from the command line (`agon-kit login`, `submit`, `test`):
its address, the user's API token, and JSON requests with one clear line for every way
they fail. Standard library only: the bot kit installs no other package.

Whatever the server answers is shown through `printable`: a site, or whatever answers in
its place, must not be able to write escape sequences to the user's terminal. Redirects
are not followed: the token would go with the request to wherever it was sent, and an
upload redirected would arrive as a GET without its file."""

from __future__ import annotations

import functools
import json
import math
import os
import re
import stat
import unicodedata
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

if TYPE_CHECKING:
    import urllib.error
    import urllib.request

# urllib.request and http.client (with ssl and email) are imported by the requests, not
# with the module: they cost the help of `login`, `submit`, `test` and `dataset` about
# a fifth of their start.

DEFAULT_SERVER = "http://127.0.0.1:8000"
"""What `make run` serves."""
SERVER_VARIABLE = "AGON_SERVER"
TOKEN_VARIABLE = "AGON_TOKEN"  # noqa: S105 - the variable's name, not a token
TIMEOUT_SECONDS = 60
MAX_ANSWER_BYTES = 8 * 1024 * 1024
MAX_SHOWN_CHARACTERS = 300
TOKEN_SHAPE = re.compile(r"[!-~]{1,200}")
"""Printable ASCII without spaces: what fits in a header (the site's are 40 hex digits)."""


class RemoteError(Exception):
    """A request that did not give what was asked; the message is for the user as it is."""


ESCAPE_SEQUENCE = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)?|.)")
"""A terminal's control sequences: CSI (colours, cursor, clearing), OSC (the window's
title), or ESC and one character."""


def printable(text: object, limit: int = MAX_SHOWN_CHARACTERS) -> str:
    """`text` from the server as one line of plain characters, at most `limit` long."""
    shown = "".join(
        " " if unicodedata.category(c)[0] in "CZ" and c != " " else c
        for c in ESCAPE_SEQUENCE.sub("", str(text))
    )
    shown = " ".join(shown.split())
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


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
    except (OSError, UnicodeDecodeError):
        return None


def check_token(token: str, server: str) -> str:
    if not TOKEN_SHAPE.fullmatch(token):
        raise RemoteError(f"that is not an API token: copy yours from {server}/my/token/")
    return token


def find_server(given: str | None) -> str:
    """--server, else $AGON_SERVER, else the default: an http(s) address with a host."""
    server = (given or os.environ.get(SERVER_VARIABLE) or DEFAULT_SERVER).strip().rstrip("/")
    parts = urllib.parse.urlsplit(server)
    if parts.scheme not in ("http", "https"):
        raise RemoteError(
            f"the server's address must start with http:// or https://: {printable(server)}"
        )
    if not parts.hostname:
        raise RemoteError(f"the server's address names no host: {printable(server)}")
    try:
        parts.port  # noqa: B018 - it raises when out of range
    except ValueError:
        raise RemoteError(
            f"the server's address has a port out of range: {printable(server)}"
        ) from None
    if parts.query or parts.fragment or any(c.isspace() for c in server):
        raise RemoteError(f"the server's address is a site's, with no query: {printable(server)}")
    return server


@functools.cache
def _opener() -> urllib.request.OpenerDirector:
    """What opens every request: it follows no redirect. Made at the first request (see
    the note at the top)."""
    import urllib.request  # at the first request: see the note at the top

    class NoRedirects(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None  # urllib then raises the 3xx as an HTTPError

    return urllib.request.build_opener(NoRedirects)


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
        boundary = f"agon-{os.urandom(16).hex()}"
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

    def download(
        self,
        path: str,
        target: BinaryIO,
        *,
        offset: int = 0,
        progress: Callable[[int], None] | None = None,
    ) -> int:
        """The file at `path` written to `target` from byte `offset` on (`Range`): the
        offset the server took, 0 when it sent the whole file (the caller then starts
        `target` afresh: it is truncated here). No token goes with it: what is downloaded
        this way is public."""
        # A request's modules: see the note at the top.
        import http.client
        import urllib.error
        import urllib.request

        headers = {"Range": f"bytes={offset}-"} if offset else {}
        request = urllib.request.Request(self.page(path), headers=headers)  # noqa: S310
        try:
            with _opener().open(request, timeout=TIMEOUT_SECONDS) as answer:
                taken = offset if answer.status == 206 else 0
                target.seek(taken)
                target.truncate()
                while block := answer.read(1 << 16):
                    target.write(block)
                    if progress:
                        progress(len(block))
                return taken
        except urllib.error.HTTPError as error:
            raise RemoteError(self._refusal(error)) from None
        except (OSError, http.client.HTTPException) as error:
            reason = getattr(error, "reason", None) or error
            raise RemoteError(
                f"the download from {self.url} broke off ({printable(reason)})"
            ) from None

    def _send(self, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> Any:
        # A request's modules: see the note at the top.
        import http.client
        import urllib.error
        import urllib.request

        headers = {"Accept": "application/json", **headers}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        # find_server let only http(s) addresses through
        request = urllib.request.Request(  # noqa: S310
            self.page(path), data=body, headers=headers, method=method
        )
        try:
            with _opener().open(request, timeout=TIMEOUT_SECONDS) as answer:
                return _json_of(answer.read(MAX_ANSWER_BYTES + 1), self.url)
        except urllib.error.HTTPError as error:
            raise RemoteError(self._refusal(error)) from None
        except (OSError, http.client.HTTPException) as error:
            reason = getattr(error, "reason", None) or error
            raise RemoteError(
                f"cannot reach {self.url} ({printable(reason)}): is the site up? "
                f"Name another with --server or {SERVER_VARIABLE}"
            ) from None

    def _refusal(self, error: urllib.error.HTTPError) -> str:
        import http.client  # loaded already by the request refused

        code = error.code
        if 300 <= code < 400:
            return self._redirected(error)
        try:
            said = printable(_said(json.loads(error.read(64 * 1024))))
        except (ValueError, OSError, http.client.HTTPException):
            said = ""
        if code == 401:
            where = self.page("/my/token/")
            how = "no token was given" if not self.token else "the server refused the token"
            return f"{how} (401): get yours at {where}, then run `agon-kit login`"
        if code == 403:
            return f"not allowed (403){': ' + said if said else ''}"
        if code == 404:
            return f"not found (404){': ' + said if said else ''}"
        if code == 429:
            wait = _retry_after(error.headers.get("Retry-After"))
            return f"too many requests (429){': ' + said if said else ''}; try again {wait}"
        return f"the server refused ({code}){': ' + said if said else ''}"

    def _redirected(self, error: urllib.error.HTTPError) -> str:
        target = urllib.parse.urljoin(error.url, error.headers.get("Location") or "")
        message = f"{self.url} sent the request on to {printable(target)} ({error.code})"
        asked = urllib.parse.urlsplit(error.url).path
        moved = urllib.parse.urlsplit(target)
        if moved.scheme in ("http", "https") and moved.netloc and moved.path.endswith(asked):
            base = f"{moved.scheme}://{moved.netloc}{moved.path.removesuffix(asked)}"
            return f"{message}: if the site moved, give --server {printable(base)}"
        return f"{message}: is {self.url} an Agon site?"


def _retry_after(header: str | None) -> str:
    """When to try again, in words, from a Retry-After of seconds."""
    if header is None or not header.strip().isdigit():
        return "later"
    seconds = int(header.strip())
    if seconds < 90:
        return f"in {max(seconds, 1)} seconds"
    if seconds < 90 * 60:
        return f"in {math.ceil(seconds / 60)} minutes"
    return f"in {math.ceil(seconds / 3600)} hours"


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
