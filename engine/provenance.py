"""Where a piece of component data comes from: the rules text (`sourced`) or our
reconstruction where nothing published could be read (`reconstructed`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Provenance = Literal["sourced", "reconstructed"]


@dataclass(frozen=True)
class Quantity:
    """A number of the rules, with its provenance and where it was read or why chosen."""

    name: str
    value: int
    provenance: Provenance
    note: str
