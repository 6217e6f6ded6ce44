"""A 64-bit seed in a signed 64-bit column.

The engine and the `agon` tools draw seeds from 0 to 2**64 - 1, but PostgreSQL's bigint
and SQLite's integer are signed. A seed from 2**63 up is stored as its two's complement
and read back as the seed it was, so a match plays on the very seed its tournament or
version test drew, as `agon tournament` and `agon match` play it.
"""

from __future__ import annotations

from typing import Any

from django.core import validators
from django.db import models
from django.utils.functional import cached_property

SEEDS = 1 << 64
"""Seeds are below this."""
SIGNED_LIMIT = 1 << 63


def stored_seed(seed: int) -> int:
    """The column's value for a seed: the same 64 bits read as signed."""
    if not 0 <= seed < SEEDS:
        raise ValueError(f"a seed is from 0 to 2**64 - 1, not {seed}")
    return seed - SEEDS if seed >= SIGNED_LIMIT else seed


def read_seed(value: int) -> int:
    """The seed a column's value stands for."""
    return value % SEEDS


class SeedField(models.BigIntegerField):  # type: ignore[type-arg]
    description = "A 64-bit seed, from 0 to 2**64 - 1"

    @cached_property
    def validators(self) -> list[Any]:
        """The seed's range, in place of the signed range a bigint's validators check."""
        return [validators.MinValueValidator(0), validators.MaxValueValidator(SEEDS - 1)]

    def get_prep_value(self, value: Any) -> Any:
        value = super().get_prep_value(value)
        return None if value is None else stored_seed(value)

    def from_db_value(self, value: int | None, expression: Any, connection: Any) -> int | None:
        return None if value is None else read_seed(value)
