"""Numbers at and above 2**53 through every column and JSON payload that may hold one,
run the same on SQLite and on PostgreSQL (tests/platform/test_wide_numbers.py).

A float holds integers exactly only up to 2**53; SQLite reads a decimal through one, its
JSON functions turn integers above 2**63 - 1 into floats, and a bigint is signed. Each
check here writes such values through the platform's own code and reads them back as a
user or the scheduler would. Run as a module, it runs one check in the database of the
settings it is given (`python -m tests.platform.wide_numbers CHECK`, with
DJANGO_SETTINGS_MODULE set): the SQLite side of the test runs it so, under
`agon.settings.local`, as `agon up` would.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from agon.bots.models import Bot

WIDE = [2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1]
"""Past a float's integers, the signed bigint's top, the unsigned one's."""
SIGNED_TOP = 2**63 - 1
FLOATS = [0.1, -2.9444389791664403, 1 / 3, 123456789.123456789, 2.0**-60]
"""Floats as LLRs, points and tie-breaks are (below 1e16: PostgreSQL's jsonb gives a
float written with an exponent back as the integer of its digits, 1e16 as 10**16)."""


def _owner_and_bots(count: int) -> tuple[User, list[Bot]]:
    from django.contrib.auth.models import User

    from agon.bots.services import bot_submit
    from agon.ladders.services import ladder_ensure_defaults
    from tests.platform.support import latest_version, pass_validation, py_upload

    ladder_ensure_defaults()
    owner = User.objects.create_user(username=f"wide{User.objects.count()}", password="x" * 12)
    bots = []
    for number in range(count):
        bot = bot_submit(owner=owner, name=f"b{number}", game="akropolis", upload=py_upload())
        pass_validation(latest_version(bot))
        bots.append(bot)
    return owner, bots


def _wide_gauntlet_seed() -> int:
    """The smallest tournament seed whose gauntlet of two draws a game seed with the top
    bit set (one meeting seed in eight does), so that the checks below hold whatever the
    derivation of seeds becomes."""
    from competition.formats.gauntlet import Gauntlet

    return next(
        seed
        for seed in range(1, 1000)
        if any(game.seed >= 2**63 for game in Gauntlet(entrants=2, seed=seed).schedule())
    )


def tournaments_with_wide_game_seeds_finish() -> None:
    """A gauntlet whose games' seeds have the top bit set, and a Swiss of three (byes),
    are played to their standings; each game keeps the seed the format drew, and its match
    is dealt on that game's own deal seed."""
    from agon.tournaments.events import game_of
    from agon.tournaments.models import Tournament, TournamentGame
    from agon.tournaments.scheduling import tournament_close_entry
    from competition.formats.core import deal_seed
    from tests.platform.tournaments.support import after_entry, enter, open_tournament, play_out

    owner, bots = _owner_and_bots(3)
    wide = _wide_gauntlet_seed()
    for format, seed, entrants in (("gauntlet", wide, 2), ("swiss", 7, 3), ("round-robin", 11, 3)):
        tournament = open_tournament(owner, format=format, seed=seed)
        enter(tournament, bots[:entrants])
        tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
        play_out(tournament)
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED, (format, tournament.status)
        assert sorted(row["entrant"] for row in tournament.standings) == list(range(entrants))
        rows = list(TournamentGame.objects.filter(tournament=tournament).select_related("match"))
        seeds = [row.seed for row in rows]
        assert all(seed > 2**53 for seed in seeds), (format, seeds)
        if format == "gauntlet":
            assert any(seed >= 2**63 for seed in seeds), seeds
        for row in rows:
            dealt = deal_seed(game_of(row), row.replays)
            assert row.match is None or row.match.seed == dealt, (row, row.match.seed)


def seed_columns_keep_every_bit() -> None:
    """A match's and a tournament game's seed: saved, read, looked up, listed, updated."""
    from agon.matches.models import Match
    from agon.tournaments.models import TournamentGame

    owner, _ = _owner_and_bots(0)
    from tests.platform.tournaments.support import open_tournament

    tournament = open_tournament(owner, format="gauntlet")
    for seed in WIDE:
        match = Match.objects.create(kind="challenge", game="akropolis", players=2, seed=seed)
        game = TournamentGame.objects.create(
            tournament=tournament, round=1, tie=f"t{seed}", index=0, bots=[0, 1], seed=seed
        )
        match.refresh_from_db()
        game.refresh_from_db()
        assert (match.seed, game.seed) == (seed, seed)
        assert Match.objects.get(seed=seed).id == match.id
        assert TournamentGame.objects.get(seed=seed).id == game.id
        assert list(TournamentGame.objects.filter(id=game.id).values_list("seed", flat=True)) == [
            seed
        ]
    TournamentGame.objects.filter(tie=f"t{2**53 + 1}").update(seed=2**64 - 2)
    assert TournamentGame.objects.get(tie=f"t{2**53 + 1}").seed == 2**64 - 2


def bigint_columns_hold_the_signed_range() -> None:
    """A tournament's and a version test's own seed (drawn below 2**63) and a seat's
    dropped log bytes keep 2**63 - 1; a version test's JSON counts and LLRs keep theirs."""
    from agon.matches.models import Match, MatchSeat
    from agon.tournaments.models import Tournament
    from agon.version_testing.models import VersionTest
    from tests.platform.tournaments.support import open_tournament

    owner, bots = _owner_and_bots(1)
    tournament = open_tournament(owner, format="gauntlet", seed=SIGNED_TOP)
    assert Tournament.objects.get(id=tournament.id).seed == SIGNED_TOP
    version = bots[0].versions.get()
    test = VersionTest.objects.create(
        bot=bots[0],
        candidate=version,
        baseline_builtin="random",
        game="akropolis",
        seed=SIGNED_TOP,
        elo0=0.0,
        elo1=10.0,
        alpha=0.05,
        beta=0.05,
        max_games=10,
        created_by=owner,
        pentanomial=WIDE,
        llr_history=FLOATS,
    )
    test.refresh_from_db()
    assert test.seed == SIGNED_TOP
    assert test.pentanomial == WIDE
    assert test.llr_history == FLOATS
    match = Match.objects.create(kind="challenge", game="akropolis", players=2, seed=1)
    seat = MatchSeat.objects.create(match=match, seat=0, version=version)
    MatchSeat.objects.filter(id=seat.id).update(log_dropped_bytes=SIGNED_TOP)
    assert MatchSeat.objects.get(id=seat.id).log_dropped_bytes == SIGNED_TOP


def json_payloads_keep_their_numbers() -> None:
    """Options, scores, ranks, faults, standings: any JSON number comes back as it went
    in, whole (Django keeps JSON as text on SQLite: only SQLite's JSON functions would
    read a wide integer as a float, and the platform looks up no number inside one)."""
    from agon.matches.models import Match
    from agon.tournaments.models import Tournament
    from tests.platform.tournaments.support import open_tournament

    numbers = [*WIDE, 2**70, -(2**63), *FLOATS]
    owner, _ = _owner_and_bots(0)
    match = Match.objects.create(
        kind="challenge",
        game="akropolis",
        players=2,
        seed=1,
        options={"n": numbers},
        scores=numbers,
        ranks=numbers,
        faults=[{"seat": 0, "kind": "illegal", "detail": numbers}],
    )
    match.refresh_from_db()
    assert (match.options, match.scores, match.ranks) == ({"n": numbers}, numbers, numbers)
    assert match.faults[0]["detail"] == numbers
    tournament = open_tournament(owner, format="gauntlet")
    Tournament.objects.filter(id=tournament.id).update(
        standings=[{"rank": 1, "points": n, "tiebreaks": {"wide": n}} for n in numbers]
    )
    tournament.refresh_from_db()
    assert [row["points"] for row in tournament.standings] == numbers
    assert [row["tiebreaks"]["wide"] for row in tournament.standings] == numbers


def api_inputs_out_of_range_are_refused() -> None:
    """Ids and counts past a bigint, sent as JSON numbers or in a URL, are a 400 or a 404,
    never a server error."""
    from django.test import Client

    from agon.accounts.services import token_obtain

    owner, bots = _owner_and_bots(1)
    client = Client(HTTP_AUTHORIZATION=f"Token {token_obtain(user=owner).key}")
    mine = bots[0].id
    for value in [*WIDE[1:], 2**64, 2**70]:
        test = {"candidate": 1, "baseline_builtin": "random"}
        for method, path, body in (
            ("post", "/api/challenges/", {"ladder": value, "bots": [mine, value]}),
            ("post", "/api/challenges/", {"ladder": 1, "bots": [mine, value]}),
            ("post", f"/api/tournaments/{value}/entries/", {"bot": 1}),
            ("post", f"/api/bots/{mine}/tests/", {**test, "candidate": value}),
            ("post", f"/api/bots/{mine}/tests/", {**test, "max_games": value}),
            ("post", f"/api/bots/{mine}/tests/", {**test, "baseline_version": value}),
            ("get", f"/api/bots/{value}/", None),
            ("get", f"/api/matches/{value}/", None),
            ("get", f"/api/matches/?bot={value}", None),
            ("get", f"/api/tournaments/{value}/games/", None),
        ):
            if method == "post":
                response = client.post(path, json.dumps(body), content_type="application/json")
            else:
                response = client.get(path)
            assert response.status_code in (200, 400, 404), (path, body, response.status_code)


def stored_decimal_seeds_come_back_exact() -> None:
    """Tournament games stored before the SeedField (tournaments 0002: a decimal, which
    SQLite kept as a float from 2**63 up) get their exact seeds back from the migration,
    and their tournament then finishes."""
    from django.core.management import call_command
    from django.db import connection
    from django.test import override_settings

    from agon.matches.models import Match
    from agon.tournaments.models import Tournament, TournamentGame
    from agon.tournaments.scheduling import tournament_close_entry
    from tests.platform.tournaments.support import after_entry, enter, open_tournament, play_out

    owner, bots = _owner_and_bots(3)
    tournaments = []
    # Before the background share (tournaments 0004) every game had its match once stored.
    with override_settings(AGON_MATCH_SLOTS=1000):
        for format, seed, entrants in (("gauntlet", _wide_gauntlet_seed(), 2), ("swiss", 7, 3)):
            tournament = open_tournament(owner, format=format, seed=seed)
            enter(tournament, bots[:entrants])
            tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
            tournaments.append(tournament)
    drawn = dict(TournamentGame.objects.values_list("id", "seed"))
    assert any(seed >= 2**63 for seed in drawn.values()), drawn
    # Before every game was dealt afresh, a game's match was played on the game's own seed.
    for game_id, match_id in TournamentGame.objects.values_list("id", "match_id"):
        if match_id is not None:
            Match.objects.filter(id=match_id).update(seed=drawn[game_id])
    seatings = TournamentGame.objects.values_list("bots", flat=True)
    assert any(len(bots) == 1 for bots in seatings), "a Swiss bye"

    call_command("migrate", "tournaments", "0002", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, seed FROM tournaments_tournamentgame")
        before = dict(cursor.fetchall())
    if connection.vendor == "sqlite":
        assert any(isinstance(value, float) for value in before.values()), before
    # Every app forward, not the tournaments' alone: going back to 0002 also took back
    # the migrations of the apps that depend on it (competitions), which later tests need.
    call_command("migrate", verbosity=0)

    assert dict(TournamentGame.objects.values_list("id", "seed")) == drawn
    for tournament in tournaments:
        play_out(tournament)
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED, tournament


CHECKS: dict[str, Callable[[], None]] = {
    check.__name__: check
    for check in (
        tournaments_with_wide_game_seeds_finish,
        seed_columns_keep_every_bit,
        bigint_columns_hold_the_signed_range,
        json_payloads_keep_their_numbers,
        api_inputs_out_of_range_are_refused,
        stored_decimal_seeds_come_back_exact,
    )
}


def main() -> None:
    repo = Path(__file__).resolve().parents[2]
    sys.path[:0] = [str(repo), str(repo / "platform")]
    import django

    django.setup()
    CHECKS[sys.argv[1]]()
    print(f"{sys.argv[1]}: ok")


if __name__ == "__main__":
    main()
