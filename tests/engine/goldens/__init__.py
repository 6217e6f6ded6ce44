"""Golden playthroughs of every game (see `playthroughs`); `python -m tests.engine.goldens`
regenerates them after a deliberate rule change."""
