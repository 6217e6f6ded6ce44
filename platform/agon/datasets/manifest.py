"""A game's manifest: what its dataset holds, read from the database, and written as
`datasets/<game>/manifest.json` beside the parts (for those who read the storage
itself; the API and `agon-kit dataset pull` give the same document)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db.models import Count, Q, Sum

from agon.datasets.models import DatasetMatch, DatasetPart
from agon.datasets.schema import SCHEMA_VERSION


def licence() -> str:
    return str(settings.AGON_DATASET_LICENCE)


def manifest_name(game: str) -> str:
    return f"datasets/{game}/manifest.json"


@dataclass(frozen=True)
class DatasetSummary:
    game: str
    parts: list[DatasetPart]
    matches: int
    rows: int
    size: int
    skipped: int
    built: datetime | None


def dataset_summary(game: str) -> DatasetSummary:
    parts = list(DatasetPart.objects.filter(game=game).order_by("number"))
    counts = DatasetMatch.objects.filter(game=game).aggregate(
        skipped=Count("id", filter=Q(part__isnull=True))
    )
    totals = DatasetPart.objects.filter(game=game).aggregate(
        matches=Sum("matches"), rows=Sum("rows"), size=Sum("size")
    )
    return DatasetSummary(
        game=game,
        parts=parts,
        matches=int(totals["matches"] or 0),
        rows=int(totals["rows"] or 0),
        size=int(totals["size"] or 0),
        skipped=int(counts["skipped"] or 0),
        built=max((part.built for part in parts), default=None),
    )


def part_document(part: DatasetPart) -> dict[str, Any]:
    return {
        "name": part.file_name,
        "number": part.number,
        "rows": part.rows,
        "matches": part.matches,
        "first_match": part.first_match,
        "last_match": part.last_match,
        "size": part.size,
        "sha256": part.sha256,
        "built": part.built.isoformat(),
    }


def manifest_document(game: str) -> dict[str, Any]:
    """The manifest of `game`'s dataset."""
    summary = dataset_summary(game)
    return {
        "game": game,
        "schema_version": SCHEMA_VERSION,
        "licence": licence(),
        "matches": summary.matches,
        "rows": summary.rows,
        "size": summary.size,
        "matches_left_out": summary.skipped,
        "built": summary.built.isoformat() if summary.built else None,
        "parts": [part_document(part) for part in summary.parts],
    }


def manifest_write(game: str) -> None:
    """The manifest stored beside the parts, replacing the one there (the storage never
    overwrites: the old one is deleted first; a build that dies in between leaves none,
    and the next build writes it)."""
    name = manifest_name(game)
    text = json.dumps(manifest_document(game), indent=1, sort_keys=True).encode() + b"\n"
    if default_storage.exists(name):
        with default_storage.open(name, "rb") as stored:
            if stored.read() == text:
                return
        default_storage.delete(name)
    default_storage.save(name, ContentFile(text))


def dataset_part(game: str, file_name: str) -> DatasetPart | None:
    """The part of `game`'s dataset saved as `file_name`, or None."""
    return DatasetPart.objects.filter(game=game, name=f"datasets/{game}/{file_name}").first()
