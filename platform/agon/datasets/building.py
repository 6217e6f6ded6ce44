"""Building a game's dataset, incrementally, from the matches that qualify.

A match qualifies when it finished, is public (`Match.private` false: never a private
tournament's game nor a version test's) and is of a public kind: a ranked ladder match
or a public tournament's game. Each beat run (`agon.datasets.tasks.datasets_build`)
first takes out of the parts any match that no longer qualifies (made private, or
deleted, since it was included: its part is written again without it), then writes the
matches not yet in a part, in id order, AGON_DATASET_PART_MATCHES to a part, at most
AGON_DATASET_PARTS_PER_RUN parts a run; the next run goes on where it stopped.

Which matches a part holds is recorded in the same transaction as the part
(`agon.datasets.models`): a match is in exactly one part, and a build that died leaves
nothing half-recorded.
"""

from __future__ import annotations

import json
import logging
import re
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.core.files import File
from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from agon.datasets.manifest import manifest_write
from agon.datasets.models import Dataset, DatasetMatch, DatasetPart
from agon.datasets.parquet_parts import PartWriter, copy_without, file_digest
from agon.datasets.rows import MatchFacts, SeatFacts, decision_rows, seat_facts
from agon.matches.models import Match, MatchSeat
from engine.registry import game_ids
from engine.replay import Replay, ReplayError

log = logging.getLogger(__name__)

PUBLIC_KINDS = (Match.Kind.RANKED, Match.Kind.TOURNAMENT)
READ_CHUNK = 100
"""Matches whose seats are read in one query while a part is written."""


def qualifying_matches(game: str) -> QuerySet[Match]:
    """The matches of `game` a dataset may hold: finished, public, ranked or a public
    tournament's, with a replay."""
    return Match.objects.filter(
        game=game, status=Match.Status.FINISHED, private=False, kind__in=PUBLIC_KINDS
    ).exclude(replay="")


@dataclass
class BuildReport:
    game: str
    parts_written: int = 0
    matches_added: int = 0
    rows_added: int = 0
    matches_withdrawn: int = 0
    parts_rewritten: list[int] = field(default_factory=list)
    more_pending: bool = False


def dataset_build(
    *, game: str, max_parts: int | None = None, part_matches: int | None = None
) -> BuildReport | None:
    """One build of `game`'s dataset; None when another build holds it."""
    if not _claim(game):
        return None
    report = BuildReport(game)
    try:
        _withdraw(game, report)
        limit = settings.AGON_DATASET_PARTS_PER_RUN if max_parts is None else max_parts
        size = settings.AGON_DATASET_PART_MATCHES if part_matches is None else part_matches
        for _ in range(limit):
            ids = _pending_ids(game, size)
            if not ids:
                break
            _add_part(game, ids, report)
        report.more_pending = bool(_pending_ids(game, 1))
        manifest_write(game)
        _sweep_unlisted(game)
    finally:
        Dataset.objects.filter(game=game).update(building_until=None)
    return report


def _claim(game: str) -> bool:
    Dataset.objects.get_or_create(game=game)
    now = timezone.now()
    lease = timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT)
    free = Q(building_until__isnull=True) | Q(building_until__lt=now)
    return Dataset.objects.filter(free, game=game).update(building_until=now + lease) == 1


def _pending_ids(game: str, count: int) -> list[int]:
    included = DatasetMatch.objects.filter(game=game).values("match_id")
    return list(
        qualifying_matches(game)
        .exclude(id__in=included)
        .order_by("id")
        .values_list("id", flat=True)[:count]
    )


def _bot_of(seat: Mapping[str, object]) -> str:
    digest = seat["version__sha256"]
    return f"sha256:{digest}" if digest else f"builtin:{seat['builtin']}"


def _match_facts(matches: Sequence[Match]) -> dict[int, MatchFacts]:
    seats: dict[int, dict[int, SeatFacts]] = {}
    for seat in MatchSeat.objects.filter(match_id__in=[m.id for m in matches]).values(
        "match_id",
        "seat",
        "version__sha256",
        "builtin",
        "rank",
        "score",
        "thinking_seconds",
        "turn_milliseconds",
    ):
        seats.setdefault(int(seat["match_id"]), {})[int(seat["seat"])] = SeatFacts(
            bot=_bot_of(seat),
            rank=seat["rank"],
            score=seat["score"],
            thinking_seconds=seat["thinking_seconds"],
            turn_milliseconds=[int(ms) for ms in seat["turn_milliseconds"] or []],
        )
    return {
        m.id: MatchFacts(m.id, m.kind, seat_facts(seats.get(m.id, {}), m.players)) for m in matches
    }


def _read_replay(match: Match) -> Replay:
    with match.replay.open("rb") as stored:
        return Replay.from_json(json.loads(stored.read()))


@dataclass
class _Included:
    match_id: int
    rows: int
    skipped: str = ""


def _rows_of(ids: Sequence[int], included: list[_Included]) -> Iterator[dict[str, object]]:
    """The rows of the matches `ids`, a chunk of matches at a time; each match's count
    (or why it gave none) goes into `included`."""
    for start in range(0, len(ids), READ_CHUNK):
        matches = list(Match.objects.filter(id__in=ids[start : start + READ_CHUNK]).order_by("id"))
        facts = _match_facts(matches)
        for match in matches:
            try:
                rows = list(decision_rows(_read_replay(match), facts[match.id]))
            except (ReplayError, OSError, ValueError) as problem:
                log.warning("dataset of %s: match %s left out: %s", match.game, match.id, problem)
                included.append(_Included(match.id, 0, str(problem)[:200]))
                continue
            included.append(_Included(match.id, len(rows)))
            yield from rows


def _part_name(game: str, number: int, digest: str) -> str:
    return f"datasets/{game}/part-{number:06d}-{digest[:12]}.parquet"


def _store(path: Path, name: str) -> None:
    """The file at `path` stored under `name`; a file there already is this one (its
    name holds its digest: a build that died after storing it)."""
    if default_storage.exists(name):
        return
    with path.open("rb") as file:
        saved = default_storage.save(name, File(file))
    if saved != name:  # another build stored it meanwhile: the same bytes
        default_storage.delete(saved)


def _written(
    game: str, number: int, fill: Callable[[PartWriter], None]
) -> tuple[str, str, int, int] | None:
    """A part written by `fill(writer)` to a temporary file, then stored: its name,
    digest, size and rows; None when it has no row."""
    with tempfile.TemporaryDirectory(prefix="agon-dataset-") as folder:
        path = Path(folder) / "part.parquet"
        writer = PartWriter(path, row_group_bytes=settings.AGON_DATASET_ROW_GROUP_BYTES)
        try:
            fill(writer)
        finally:
            writer.close()
        if not writer.rows:
            return None
        digest, size = file_digest(path)
        name = _part_name(game, number, digest)
        _store(path, name)
        return name, digest, size, writer.rows


def _add_part(game: str, ids: list[int], report: BuildReport) -> None:
    last = (
        DatasetPart.objects.filter(game=game).order_by("-number").values_list("number", flat=True)
    ).first()
    number = 1 if last is None else last + 1
    included: list[_Included] = []

    def fill(writer: PartWriter) -> None:
        for row in _rows_of(ids, included):
            writer.add(row)

    written = _written(game, number, fill)
    in_part = [entry for entry in included if entry.rows]
    with transaction.atomic():
        part = None
        if written is not None:
            name, digest, size, rows = written
            part = DatasetPart.objects.create(
                game=game,
                number=number,
                name=name,
                rows=rows,
                matches=len(in_part),
                size=size,
                sha256=digest,
                first_match=min(entry.match_id for entry in in_part),
                last_match=max(entry.match_id for entry in in_part),
                built=timezone.now(),
            )
            report.parts_written += 1
            report.rows_added += rows
        DatasetMatch.objects.bulk_create(
            DatasetMatch(
                game=game,
                match_id=entry.match_id,
                part=part if entry.rows else None,
                rows=entry.rows,
                skipped=entry.skipped,
            )
            for entry in included
        )
    report.matches_added += len(in_part)


def _withdraw(game: str, report: BuildReport) -> None:
    """Take out of the parts every match that no longer qualifies."""
    qualifying = qualifying_matches(game).values("id")
    gone = DatasetMatch.objects.filter(game=game).exclude(match_id__in=qualifying)
    by_part: dict[int | None, list[int]] = {}
    for match_id, part_id in gone.values_list("match_id", "part_id"):
        by_part.setdefault(part_id, []).append(int(match_id))
    if not by_part:
        return
    skipped = by_part.pop(None, [])
    DatasetMatch.objects.filter(game=game, match_id__in=skipped).delete()
    for holder, match_ids in sorted((key, ids) for key, ids in by_part.items() if key):
        part = DatasetPart.objects.get(id=holder)
        _rewrite_without(part, match_ids)
        report.matches_withdrawn += len(match_ids)
        report.parts_rewritten.append(part.number)


def _rewrite_without(part: DatasetPart, match_ids: list[int]) -> None:
    """The part written again without the rows of `match_ids` (or dropped, if they were
    all it held); the old file is deleted once the new one is recorded."""
    old_name = part.name

    def fill(writer: PartWriter) -> None:
        with default_storage.open(old_name, "rb") as source:
            copy_without(source, writer, match_ids)

    written = _written(part.game, part.number, fill)
    with transaction.atomic():
        DatasetMatch.objects.filter(game=part.game, match_id__in=match_ids).delete()
        if written is None:
            part.delete()
        else:
            name, digest, size, rows = written
            remaining = DatasetMatch.objects.filter(part=part).values_list("match_id", flat=True)
            part.name, part.sha256, part.size, part.rows = name, digest, size, rows
            part.matches = remaining.count()
            part.first_match = min(remaining)
            part.last_match = max(remaining)
            part.built = timezone.now()
            part.save()
        if written is None or written[0] != old_name:
            transaction.on_commit(lambda: default_storage.delete(old_name))


PART_FILE = re.compile(r"part-\d{6}-[0-9a-f]{12}\.parquet")


def _sweep_unlisted(game: str) -> None:
    """Delete the part files of the game's folder that no part lists: a build died
    after storing one, and the next build's part came out otherwise (other matches had
    finished meanwhile). The lease keeps any other build of the game out."""
    folder = f"datasets/{game}"
    try:
        files = default_storage.listdir(folder)[1]
    except FileNotFoundError:
        return
    listed = set(DatasetPart.objects.filter(game=game).values_list("name", flat=True))
    for name in files:
        if PART_FILE.fullmatch(name) and f"{folder}/{name}" not in listed:
            log.info("dataset of %s: unlisted file %s deleted", game, name)
            default_storage.delete(f"{folder}/{name}")


def dataset_build_all() -> list[BuildReport]:
    """Beat's: a build of every game's dataset (the games another build holds wait for
    the next run)."""
    reports = []
    for game in game_ids():
        report = dataset_build(game=game)
        if report is not None:
            reports.append(report)
    return reports
