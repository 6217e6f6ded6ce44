"""Who sees a match: the one place every reader of matches asks.

A match is public unless it was played for a private event (`Match.private`, set when
it is made: a private tournament's game, a version test's). A private match is seen by
staff, by whoever made it (the tournament's owner, the test's owner) and by the audience
its kind of event installs from above (agon.match_kinds): the owners of the bots entered
in its tournament. Anybody else, anonymous users first, is told it does not exist.

Every list, page, replay, timeline and log of a match filters with `matches_visible_to`
or checks `match_visible`; the public records (head to head, a bot's record) count
public matches only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db.models import Q, QuerySet

from agon.listings import Value
from agon.matches.models import Match

Audience = Callable[[Any], Sequence[QuerySet[Any, Any]]]
"""Given a signed-in user, the ids of the private matches of one kind of event they may
see: querysets of match ids, each from the event's own tables."""

_audiences: list[Audience] = []


def audiences_install(audiences: Sequence[Audience]) -> None:
    """Install the audiences of the private events (agon.match_kinds, as the apps load)."""
    _audiences.clear()
    _audiences.extend(audiences)


def _signed_in(user: Any) -> bool:
    return user is not None and bool(getattr(user, "is_authenticated", False))


def sees_every_match(user: Any) -> bool:
    return _signed_in(user) and bool(user.is_staff)


def _audience_ids(user: Any) -> list[QuerySet[Any, Any]]:
    return [ids for audience in _audiences for ids in audience(user)]


def matches_visible_to(user: Any) -> Q:
    """The matches `user` (None or anonymous for nobody signed in) may see, as a
    condition on matches."""
    public = Q(private=False)
    if not _signed_in(user):
        return public
    if user.is_staff:
        return Q()
    seen = public | Q(created_by=user)
    for ids in _audience_ids(user):
        seen |= Q(id__in=ids)
    return seen


def visible_matches_sql(user: Any) -> tuple[str, list[Value]] | None:
    """`matches_visible_to` as SQL on the columns of the match table, with its
    parameters, for the listings read in plain SQL (agon.listings); None when the user
    sees every match. For nobody signed in it is one plain condition, so the public
    pages cost what they did; for a user, each audience's ids come from its own small
    tables (the user's entries), never from a scan of the matches."""
    if not _signed_in(user):
        return "private = %s", [False]
    if user.is_staff:
        return None
    arms = ["private = %s", "created_by_id = %s"]
    params: list[Value] = [False, int(user.id)]
    for ids in _audience_ids(user):
        sql, more = ids.query.sql_with_params()
        arms.append(f"id IN ({sql})")
        params += list(more)
    return f"({' OR '.join(arms)})", params


def match_visible(match: Match, user: Any) -> bool:
    """Whether `user` may see this match."""
    if not match.private or sees_every_match(user):
        return True
    if not _signed_in(user):
        return False
    return Match.objects.filter(id=match.id).filter(matches_visible_to(user)).exists()
