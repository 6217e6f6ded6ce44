"""Each game's dataset: the Parquet parts written so far and the matches each holds.

The database is where a build commits: a part's file is written to storage first, under
a name made of its number and its content's digest, and only then recorded here with
its matches, in one transaction. A build that dies in between leaves a file nobody
lists; the next build makes the same part again, byte for byte, finds it under the same
name and records it. So a crash loses nothing and duplicates nothing."""

from __future__ import annotations

from django.db import models


class Dataset(models.Model):
    """One game's dataset, and the lease of the build working on it."""

    game = models.CharField(max_length=32, unique=True)
    building_until = models.DateTimeField(null=True, blank=True)
    """A build holds the dataset until then (a conditional update claims it): two beat
    runs never write the same game's parts at once."""

    def __str__(self) -> str:
        return f"dataset of {self.game}"


class DatasetPart(models.Model):
    """One Parquet file of a game's dataset, as stored."""

    game = models.CharField(max_length=32)
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=255)
    """Its key in the configured storage (`datasets/<game>/part-NNNNNN-<digest>.parquet`)."""
    rows = models.PositiveBigIntegerField()
    matches = models.PositiveIntegerField()
    size = models.PositiveBigIntegerField()
    sha256 = models.CharField(max_length=64)
    first_match = models.PositiveBigIntegerField(null=True)
    last_match = models.PositiveBigIntegerField(null=True)
    built = models.DateTimeField()
    """When this file was written (again, if matches were withdrawn from it since)."""

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="dataset_part_number"),
        ]
        ordering = ["game", "number"]

    def __str__(self) -> str:
        return self.name

    @property
    def file_name(self) -> str:
        """The file's name without its folder, as `agon-kit dataset pull` saves it."""
        return self.name.rsplit("/", 1)[-1]


class DatasetMatch(models.Model):
    """A match a part holds (or a match looked at and left out: `rows` 0 and the
    reason). The match's id is a plain number, not a key: a match deleted since must
    still be found here, to be taken out of its part."""

    game = models.CharField(max_length=32)
    match_id = models.PositiveBigIntegerField()
    part = models.ForeignKey(
        DatasetPart, null=True, on_delete=models.CASCADE, related_name="included"
    )
    rows = models.PositiveIntegerField()
    skipped = models.CharField(max_length=200, blank=True)
    """Why a match that qualifies gave no rows (its replay no longer plays through this
    engine, ...); empty for a match in a part."""

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "match_id"], name="dataset_match_once"),
        ]
        indexes = [models.Index(fields=["match_id"], name="dataset_match_id")]

    def __str__(self) -> str:
        return f"match {self.match_id} in the {self.game} dataset"
