"""The archive of a finished competition: copies, not references.

When the final ends, each entrant's result (its final place and points, its place and
rating on the ladder when the final started, its bot's name, its owner's name, the
number and SHA-256 of the version it played) and each game of the final (seats, seed,
ranks, scores, the replay's name and the rules version it was played under) are copied
into rows of their own. A later rating, rename, rule or engine change touches none of
them, and the archive is only ever written here, once, in the transaction that finishes
the competition.
"""

from __future__ import annotations

from agon.competitions.models import (
    ArchivedGame,
    ArchivedStanding,
    Competition,
    CompetitionEntry,
)
from agon.tournaments.models import Tournament, TournamentGame
from engine.registry import get_game


def archive_final(competition: Competition, final: Tournament) -> None:
    entries = list(competition.entries.select_related("bot__owner", "version").order_by("id"))
    by_bot = {entry.bot_id: entry for entry in entries}
    numbers = dict(final.entries.values_list("number", "bot_id"))
    placed = {int(str(row["bot"])): row for row in final.standings}
    ArchivedStanding.objects.bulk_create(
        ArchivedStanding(
            competition=competition,
            rank=_int(placed[entry.bot_id]["rank"]) if entry.bot_id in placed else None,
            ladder_place=entry.ladder_place,
            ladder_rating=entry.ladder_rating,
            bot_id=entry.bot_id,
            bot_name=entry.bot.name,
            owner_name=entry.bot.owner.username,
            version_number=entry.version.number if entry.version else None,
            version_digest=entry.version.sha256 if entry.version else "",
            points=_float(placed[entry.bot_id]["points"]) if entry.bot_id in placed else None,
            tiebreaks=dict(placed[entry.bot_id]["tiebreaks"]) if entry.bot_id in placed else {},
        )
        for entry in entries
    )
    rules_version = get_game(final.game).rules_version
    games = TournamentGame.objects.filter(tournament=final).select_related("match").order_by("id")
    ArchivedGame.objects.bulk_create(
        ArchivedGame(
            competition=competition,
            round=game.round,
            tie=game.tie,
            index=game.index,
            seed=str(game.seed),
            seats=[_seat(by_bot[numbers[number]]) for number in game.bots],
            ranks=game.ranks,
            scores=list(game.match.scores) if game.match else [],
            void=game.void,
            forfeited=game.forfeited,
            match_id=game.match_id,
            replay=game.match.replay.name if game.match and game.match.replay else "",
            rules_version=rules_version,
        )
        for game in games
    )


def _seat(entry: CompetitionEntry) -> dict[str, object]:
    version = entry.version
    return {
        "bot": entry.bot_id,
        "name": entry.bot.name,
        "version": version.number if version else None,
        "digest": version.sha256 if version else "",
    }


def _int(value: object) -> int:
    return int(str(value))


def _float(value: object) -> float:
    return float(str(value))
