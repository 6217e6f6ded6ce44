"""The competition's rules as pure code: no Django, no Celery, no platform app.

- `competition.formats`: tournament formats (round robin, Swiss, knockout, double
  elimination, gauntlet) behind one protocol and one registry of names;
- `competition.sprt` and `competition.sprt_words`: the sequential test of a version test
  and its verdict in plain words; `competition.version_pairing`: its games;
- `competition.ratings`: the rating systems (Glicko, Elo), the one the ladders use, and an
  offline fit to check them.

The platform (`agon`) stores and shows what these decide; `agon tournament`, `agon match`
and the bot kit run them on a laptop. import-linter keeps this package free of the
platform (pyproject.toml).
"""
