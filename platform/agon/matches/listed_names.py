"""The names token of the matches' kept list entries (`agon.api.listed_matches`): a
finished match's entry in the lists is kept as JSON, tagged with this token, and shows its
bots' names; a rename or a deletion forgets the token, and with it every kept entry."""

from __future__ import annotations

from django.core.cache import cache
from django.db import transaction

NAMES_KEY = "agon:listed-match-names"


def listed_matches_forget() -> None:
    """A bot's name changes (a rename) or it goes (a deletion): every kept entry is made
    again, once the change is committed (renames are rare; entries are cheap to make)."""
    transaction.on_commit(lambda: cache.delete(NAMES_KEY))
