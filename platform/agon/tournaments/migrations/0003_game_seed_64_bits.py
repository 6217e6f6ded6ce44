"""A tournament game's seed becomes a SeedField, as a match's: all 64 bits in a signed
bigint (two's complement from 2**63 up), read back as drawn.

It was a decimal(20, 0). PostgreSQL kept it exactly, and converts it here in place. SQLite
did not: Django reads a decimal there through a float of 15 digits, and a seed from 2**63
up was stored as a float already, so the games read back never matched the games the
format asked for and no tournament finished. Its table is rebuilt with the new column, and
each game's seed is put back exactly: as stored when SQLite kept it as an integer (below
2**63, where only the reading lost it); otherwise, of the seeds its float stands for, the
one its match played (a match's seed is exact, its top bit dropped before matches 0008)
or, for a Swiss bye, the one the format draws for it (sha256 of "seed:round:bot", as
agon.tournaments.formats at the time of this migration).
"""

import hashlib
import json

from django.db import migrations, models

import agon.matches.fields
from agon.matches.fields import SEEDS, read_seed, stored_seed

TABLE = "tournaments_tournamentgame"
TOP_BIT = 1 << 63


def _swiss_bye_seed(tournament_seed, round_, bot):
    text = f"{tournament_seed}:{round_}:{bot}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _exact_seed(stored, match_seed, bye_seed):
    """The seed a stored SQLite value stands for: itself if an integer, else the
    candidate whose float it is (None if none is)."""
    if isinstance(stored, int):
        return stored
    candidates = []
    if match_seed is not None:
        seed = read_seed(match_seed)
        candidates += [seed, seed | TOP_BIT]
    if bye_seed is not None:
        candidates.append(bye_seed)
    return next((seed for seed in candidates if float(seed) == float(stored)), None)


def _sqlite_rows(schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            f"SELECT g.id, g.seed, g.round, g.bots, m.seed, t.seed, t.format "  # noqa: S608
            f"FROM {TABLE} g JOIN tournaments_tournament t ON t.id = g.tournament_id "
            "LEFT JOIN matches_match m ON m.id = g.match_id"
        )
        return cursor.fetchall()


def _fields(model):
    """The column before (decimal) and after (SeedField), as fields of `model`."""
    decimal = models.DecimalField(max_digits=20, decimal_places=0)
    seed = agon.matches.fields.SeedField()
    for field in (decimal, seed):
        field.set_attributes_from_name("seed")
        field.model = model
    return decimal, seed


def forwards(apps, schema_editor):
    TournamentGame = apps.get_model("tournaments", "TournamentGame")
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"ALTER TABLE {TABLE} ALTER COLUMN seed TYPE bigint USING "
            f"(CASE WHEN seed >= {TOP_BIT} THEN seed - {SEEDS} ELSE seed END)::bigint"
        )
        return
    seeds = {}
    for game_id, stored, round_, bots, match_seed, tournament_seed, format_ in _sqlite_rows(
        schema_editor
    ):
        bots = json.loads(bots) if isinstance(bots, str) else bots
        bye = len(bots) == 1 and format_ == "swiss"
        bye_seed = _swiss_bye_seed(tournament_seed, round_, bots[0]) if bye else None
        seed = _exact_seed(stored, match_seed, bye_seed)
        seeds[game_id] = seed if seed is not None else min(int(stored), SEEDS - 1)
    schema_editor.alter_field(TournamentGame, *_fields(TournamentGame))
    with schema_editor.connection.cursor() as cursor:
        for game_id, seed in seeds.items():
            cursor.execute(
                f"UPDATE {TABLE} SET seed = %s WHERE id = %s",  # noqa: S608
                [stored_seed(seed), game_id],
            )


def backwards(apps, schema_editor):
    TournamentGame = apps.get_model("tournaments", "TournamentGame")
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"ALTER TABLE {TABLE} ALTER COLUMN seed TYPE numeric(20, 0) USING "
            f"(CASE WHEN seed < 0 THEN seed::numeric + {SEEDS} ELSE seed::numeric END)"
        )
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(f"SELECT id, seed FROM {TABLE}")  # noqa: S608
        seeds = {game_id: read_seed(value) for game_id, value in cursor.fetchall()}
    decimal, seed = _fields(TournamentGame)
    schema_editor.alter_field(TournamentGame, seed, decimal)
    with schema_editor.connection.cursor() as cursor:
        for game_id, value in seeds.items():
            cursor.execute(
                f"UPDATE {TABLE} SET seed = %s WHERE id = %s",  # noqa: S608
                [str(value), game_id],
            )


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0008_seed_64_bits"),
        ("tournaments", "0002_tournamentgame_attempts"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="tournamentgame",
                    name="seed",
                    field=agon.matches.fields.SeedField(),
                ),
            ],
            database_operations=[migrations.RunPython(forwards, backwards)],
        ),
    ]
