"""An error as one line for a health report: what went wrong, with a URL's credentials
masked. Reads no setting: `agon health` says with it why the settings themselves failed."""

from __future__ import annotations

import re

ERROR_CHARS = 500
"""An error message is cut at this length: enough for the reason, not a traceback."""

_CREDENTIALS = re.compile(r"(?P<scheme>[a-z][a-z0-9+.-]*://)[^/@\s]*@", re.IGNORECASE)


def describe_error(error: BaseException) -> str:
    """One line saying what went wrong, with any credentials of a URL masked."""
    text = " ".join(str(error).split()) or "no message"
    text = _CREDENTIALS.sub(r"\g<scheme>***@", f"{type(error).__name__}: {text}")
    return text if len(text) <= ERROR_CHARS else text[: ERROR_CHARS - 3] + "..."
