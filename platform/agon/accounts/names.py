"""What a username or a bot's name may be, and which new names look too much like others.

Every name is normalised first (Unicode NFKC: a full-width `a`, U+FF41, is `a`, a
ligature `fi`, U+FB01, is `fi`). A username is then 2 to 30 ASCII letters, digits, `_`
and `-` (lichess's rule: a label must read the same in every font). A bot's name may
hold any letter, but no control or format character (the bidi controls that turn text
around, zero-width joiners...), no line break, and no `@` or `/`, which its label
`owner/name@vN` uses.

A new name is refused when it looks like one already taken: their *skeletons* are equal
(Unicode's UTS #39: each character replaced by the representative of the characters it
can be confused with, from the confusables data that `confusable_homoglyphs` ships, so
that Cyrillic `o` (U+043E) and Greek `o` (U+03BF) read as `o`, `0` as `O`), case aside.
Usernames are compared with every user's, bot names with the owner's other bots' (another
owner's label differs by its owner). Names taken before these rules stay valid:
`manage.py check_names` lists those the rules would refuse now.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable

from confusable_homoglyphs.confusables import confusables_data
from django.core.exceptions import ValidationError

USERNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{1,29}")
USERNAME_RULE = (
    "a username is 2 to 30 characters: ASCII letters, digits, _ and -, "
    "starting with a letter or a digit"
)
RESERVED_USERNAMES = ("admin", "agon", "builtin", "staff")
"""Refused at sign-up with their look-alikes, besides AGON_HOUSE_ACCOUNTS."""
BOT_NAME_MAX = 64
BOT_NAME_TAKEN = "bot_name_taken"
"""The code of the refusal of a name the owner's bot has already (a form may add a hint)."""
DIRECTION_MARKS = "\u200e\u200f"
"""The confusables data writes right-to-left characters between these; not part of them."""


def normalised(name: str) -> str:
    return unicodedata.normalize("NFKC", name).strip()


def username_problem(username: str) -> str | None:
    """Why a (normalised) username is not allowed, or None."""
    return None if USERNAME.fullmatch(username) else USERNAME_RULE


def bot_name_problem(name: str) -> str | None:
    """Why a (normalised) bot name is not allowed, or None."""
    if not 1 <= len(name) <= BOT_NAME_MAX:
        return f"a bot needs a name of 1 to {BOT_NAME_MAX} characters"
    hidden = [c for c in name if unicodedata.category(c)[0] == "C" or c in "\u2028\u2029"]
    if hidden:
        codes = ", ".join(dict.fromkeys(f"U+{ord(c):04X}" for c in hidden))
        return (
            "a bot's name may not hold control or formatting characters (such as the "
            f"direction marks that turn text around): {codes}"
        )
    if "@" in name or "/" in name:
        return "a bot's name may not hold @ or /: they separate a label's parts (owner/name@vN)"
    return None


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype, the one its look-alikes read as (UTS #39's
    `confusables.txt`, where a prototype maps to itself). The data ships each mapping both
    ways: a character with a single look-alike maps to it when that one has others (a
    prototype), and of a pair that only know each other, both map to the smaller."""
    glyphs = {
        key.strip(DIRECTION_MARKS): [glyph["c"].strip(DIRECTION_MARKS) for glyph in found]
        for key, found in confusables_data.items()
    }
    prototypes = {}
    for char, alike in glyphs.items():
        if len(char) != 1 or len(alike) != 1:
            continue
        (other,) = alike
        if len(other) > 1 or len(glyphs.get(other, [])) > 1 or other < char:
            prototypes[char] = other
    return prototypes


def skeleton(text: str) -> str:
    """UTS #39's skeleton of `text`: equal for two texts that may be confused (`AIice`
    with a capital `I` and `Alice`; `a` and Cyrillic `a`, U+0430; `rn` and `m`)."""
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(prototypes.get(c, c) for c in decomposed))


def lookalike_keys(name: str) -> frozenset[str]:
    """Skeletons of a name case aside: its skeleton case folded, and its case folded form's
    (each skeleton again), so that `AIice` (a capital i) and `ALICE` both read as `alice`."""
    return frozenset(skeleton(skeleton(text).casefold()) for text in (name, name.casefold()))


def lookalike_of(name: str, taken: Iterable[str]) -> str | None:
    """The first of `taken` that `name` may be confused with, case aside, or None."""
    keys = lookalike_keys(name)
    return next((other for other in taken if keys & lookalike_keys(other)), None)


def username_check(username: str, *, taken: Iterable[str], reserved: Iterable[str]) -> str:
    """The username normalised, or ValidationError: not allowed, taken (case aside), or
    too like a username `taken` or `reserved`."""
    name = normalised(username)
    problem = username_problem(name)
    if problem is not None:
        raise ValidationError(problem)
    like = lookalike_of(name, reserved)
    if like is not None:
        raise ValidationError(f"the username {name!r} is reserved; choose another")
    like = lookalike_of(name, taken)
    if like is not None and like.casefold() == name.casefold():
        raise ValidationError(f"the username {name!r} is taken; choose another")
    if like is not None:
        raise ValidationError(
            f"the username {name!r} looks too much like {like!r}, another user's; choose another"
        )
    return name


def bot_name_check(name: str, *, owner_bots: Iterable[str]) -> str:
    """The bot name normalised, or ValidationError: not allowed, or the same as or too
    like one of `owner_bots` (the owner's other bots' names)."""
    name = normalised(name)
    problem = bot_name_problem(name)
    if problem is not None:
        raise ValidationError(problem)
    like = lookalike_of(name, owner_bots)
    if like == name:
        raise ValidationError(f"you already have a bot called {name!r}", code=BOT_NAME_TAKEN)
    if like is not None:
        raise ValidationError(
            f"the name {name!r} looks too much like that of your bot {like!r}; choose another"
        )
    return name


def names_report(*, users: list[str], bots: list[tuple[str, str]]) -> list[str]:
    """One line per name taken that the rules would refuse now (`manage.py check_names`):
    its problem, or the earlier name it looks like. `users` and `bots` (owner, name) in
    the order they were taken."""
    lines = []
    seen: dict[tuple[str, str], str] = {}
    problems: dict[str, Callable[[str], str | None]] = {
        "user": username_problem,
        "bot": bot_name_problem,
    }
    named = [("", "user", username) for username in users]
    named += [(owner, "bot", name) for owner, name in bots]
    for owner, kind, name in named:
        keys = lookalike_keys(name)
        like = next((seen[(owner, key)] for key in keys if (owner, key) in seen), None)
        label = f"user {name!r}" if kind == "user" else f"{owner}'s bot {name!r}"
        problem = problems[kind](normalised(name))
        if problem is not None:
            lines.append(f"{label}: {problem}")
        elif like is not None:
            lines.append(f"{label}: looks like {like!r}, taken before")
        for key in keys:
            seen.setdefault((owner, key), name)
    return lines
