"""What a run of a command line (`agon`, `agon-kit`) gave back."""

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
