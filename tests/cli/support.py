"""What a run of the `agon` command gave back."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass
class Outcome:
    code: int
    out: str
    err: str

    def last_json(self) -> Any:
        return json.loads(self.out.strip().splitlines()[-1])
