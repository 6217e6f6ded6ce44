"""A bot that imports the engine for lookahead, as search bots do, and logs which
Akropolis, Attika and Megalopolis it got: each compiled core's file (issue 32), or None
where the engine fell back to pure Python."""

from __future__ import annotations

import engine.akropolis.native as akropolis
import engine.attika.native as attika
import engine.megalopolis.native as megalopolis
from agon_bot import log, run

for native in (akropolis, attika, megalopolis):
    log(f"CORE {native.CORE.__file__ if native.CORE else None}")

if __name__ == "__main__":
    run(lambda observation, legal_actions: legal_actions[0])
