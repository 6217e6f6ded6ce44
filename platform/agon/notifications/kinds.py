"""The kinds of event a user may be told about: one line each.

A kind is a name stored in the rows (no database choices: a new kind, such as a
competition's phases, is one more line here and no migration) with the words the
settings page shows and the channels it goes to until the user chooses otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

SITE = "site"
EMAIL = "email"
WEBHOOKS = "webhooks"
CHANNELS = (SITE, EMAIL, WEBHOOKS)
"""Where a notification goes: the notifications page, the user's e-mail address, each of
their webhooks."""


@dataclass(frozen=True, slots=True)
class Kind:
    name: str
    label: str
    """What the settings page calls it."""
    default_channels: frozenset[str]


DEFAULT = frozenset({SITE, WEBHOOKS})
"""E-mail is off until the user turns it on: an address is theirs to give."""

KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind("validation_failed", "A new version failed its validation", DEFAULT),
        Kind("bot_paused", "A version was paused from matchmaking for its faults", DEFAULT),
        Kind("bot_resumed", "A paused version plays ranked matches again", DEFAULT),
        Kind("version_test_verdict", "A version test ended (its verdict)", DEFAULT),
        Kind("tournament_phase", "A tournament you entered started or was cancelled", DEFAULT),
        Kind("tournament_result", "A tournament you entered finished (your places)", DEFAULT),
        Kind(
            "competition_phase",
            "A competition you entered opened, froze, started its final or was cancelled",
            DEFAULT,
        ),
        Kind("competition_result", "A competition you entered finished (your places)", DEFAULT),
        Kind("rating_milestone", "A bot's rating reached a new hundred on a ladder", DEFAULT),
    )
}
"""Every kind, in the order the settings page lists them."""


class UnknownKind(LookupError):
    pass


def kind_of(name: str) -> Kind:
    try:
        return KINDS[name]
    except KeyError:
        raise UnknownKind(f"no kind of notification called {name!r}") from None
