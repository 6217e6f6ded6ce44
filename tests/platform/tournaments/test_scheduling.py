"""The schedule of a tournament on the platform: the entry closes and freezes versions,
rounds are queued as tournament matches from the format's pairings, results come back
through the kind's outcome, and the standings are stored at the end."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from pytest_django import DjangoCaptureOnCommitCallbacks

from agon.bots.models import BotVersion
from agon.bots.services import version_submit
from agon.ladders.models import Ladder, Rating
from agon.matches.models import Match
from agon.tournaments import scheduling
from agon.tournaments.models import Entry, Tournament
from agon.tournaments.scheduling import tournament_close_entry, tournaments_advance
from competition.formats.core import Result, ScheduledGame
from competition.formats.swiss import Swiss
from tests.platform.conftest import MakeBot
from tests.platform.support import (
    finish_match,
    latest_version,
    pass_validation,
    play_ranked,
    py_upload,
)
from tests.platform.tournaments.support import (
    after_entry,
    enter,
    games_in_play,
    lower_seat_wins,
    open_tournament,
    play_out,
)

pytestmark = pytest.mark.django_db


def test_a_swiss_is_played_to_its_end_with_standings(make_bot: MakeBot, alice: User) -> None:
    bots = [make_bot(alice, f"bot{i}") for i in range(5)]
    tournament = open_tournament(alice, rounds=3)
    enter(tournament, bots)
    assert tournaments_advance(now=after_entry(tournament)) == [tournament.id]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    first_round = games_in_play(tournament)
    assert len(first_round) == 4  # two tables of a meeting of two games; one bye
    assert {game.match.kind for game in first_round if game.match} == {"tournament"}
    played = play_out(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert played == 3 * 4
    standings = tournament.standings
    assert [row["rank"] for row in standings] == sorted(row["rank"] for row in standings)
    assert len(standings) == 5
    assert set(standings[0]["tiebreaks"]) >= {"buchholz", "sonneborn_berger"}
    # A round: 4 games worth a point each, and a bye worth a won meeting (2 points).
    assert sum(row["points"] for row in standings) == pytest.approx(3 * (4 + 2))


def test_tournament_games_move_no_rating(make_bot: MakeBot, alice: User) -> None:
    bots = [make_bot(alice, f"bot{i}") for i in range(4)]
    tournament = open_tournament(alice, format="round-robin")
    enter(tournament, bots)
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    before = list(Rating.objects.order_by("id").values_list("games", "rating"))
    play_out(tournament)
    assert list(Rating.objects.order_by("id").values_list("games", "rating")) == before
    assert not Match.objects.filter(kind="tournament", ladder__isnull=False).exists()


def test_the_versions_are_frozen_when_the_entry_closes(make_bot: MakeBot, alice: User) -> None:
    bots = [make_bot(alice, f"bot{i}") for i in range(3)]
    tournament = open_tournament(alice, format="round-robin")
    enter(tournament, bots)
    frozen = latest_version(bots[0])
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    version_submit(bot=bots[0], upload=py_upload())
    newer = pass_validation(latest_version(bots[0]))
    assert newer != frozen
    play_out(tournament)
    seats = Match.objects.filter(kind="tournament", seats__version__bot=bots[0])
    assert set(seats.values_list("seats__version", flat=True)) >= {frozen.id}
    assert not Match.objects.filter(kind="tournament", seats__version=newer).exists()


def test_seeds_follow_the_ladder_ratings_then_the_order_of_entry(
    make_bot: MakeBot, alice: User, ladder_2p: Ladder
) -> None:
    ant, bee, cat, dog = (make_bot(alice, name) for name in ("ant", "bee", "cat", "dog"))
    play_ranked(ladder_2p, [cat, bee], scores=[30, 10])  # cat rated above bee
    Rating.objects.filter(bot=ant).delete()  # ant unrated: seeded after the rated bots
    tournament = open_tournament(alice, format="knockout")
    enter(tournament, [ant, bee, cat, dog])
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    numbers = dict(Entry.objects.filter(tournament=tournament).values_list("bot", "number"))
    # dog, unrated by a game, has the initial rating: between cat and bee.
    assert [numbers[bot.id] for bot in (cat, dog, bee, ant)] == [0, 1, 2, 3]


def test_too_few_entrants_with_an_active_version_cancel_it(make_bot: MakeBot, alice: User) -> None:
    ant, bee = make_bot(alice, "ant"), make_bot(alice, "bee")
    tournament = open_tournament(alice)
    enter(tournament, [ant, bee])
    BotVersion.objects.filter(bot=bee).update(status=BotVersion.Status.RETIRED)
    assert tournaments_advance(now=after_entry(tournament)) == [tournament.id]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert "1 entrants with an active version" in tournament.note
    assert not Match.objects.filter(kind=Match.Kind.TOURNAMENT).exists()


def test_nothing_happens_before_the_entry_closes(make_bot: MakeBot, alice: User) -> None:
    tournament = open_tournament(alice)
    enter(tournament, [make_bot(alice, "ant"), make_bot(alice, "bee")])
    assert tournaments_advance(now=tournament.entry_closes - timedelta(seconds=1)) == []
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.ENTRY


def test_the_last_game_of_a_round_moves_the_tournament_on_when_it_commits(
    make_bot: MakeBot,
    alice: User,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    sent: list[tuple[str, tuple[int, ...]]] = []

    class FakeCelery:
        @staticmethod
        def send_task(name: str, args: tuple[int, ...], **options: object) -> None:
            sent.append((name, args))

    monkeypatch.setattr(scheduling, "celery_app", FakeCelery)
    tournament = open_tournament(alice, format="gauntlet")
    enter(tournament, [make_bot(alice, "ant"), make_bot(alice, "bee")])
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    first, last = games_in_play(tournament)
    assert first.match is not None and last.match is not None
    with django_capture_on_commit_callbacks(execute=True):
        finish_match(first.match, scores=[1, 2])
    assert sent == []
    with django_capture_on_commit_callbacks(execute=True):
        finish_match(last.match, scores=[1, 2])
    assert sent == [(scheduling.ADVANCE_TASK, (tournament.id,))]


@pytest.mark.parametrize(
    ("settings", "entrants"),
    [
        ({"format": "round-robin", "meetings": 2}, 3),
        ({"format": "swiss", "players": 3, "rounds": 2}, 5),
        ({"format": "knockout"}, 5),
        ({"format": "knockout", "players": 3}, 7),
        ({"format": "double-elimination"}, 5),
        ({"format": "gauntlet", "meetings": 2}, 3),
    ],
    ids=lambda value: "-".join(map(str, value.values())) if isinstance(value, dict) else value,
)
def test_every_format_is_played_to_its_end(
    make_bot: MakeBot, alice: User, settings: dict[str, object], entrants: int
) -> None:
    tournament = open_tournament(alice, **settings)
    enter(tournament, [make_bot(alice, f"bot{i}") for i in range(entrants)])
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    play_out(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert sorted(row["entrant"] for row in tournament.standings) == list(range(entrants))
    assert tournament.standings[0]["rank"] == 1


def test_a_beat_asks_the_format_again_only_once_a_game_was_decided_since(
    make_bot: MakeBot, alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a round is played, every beat would otherwise pair again (a 256-bot Swiss:
    seconds a beat): a beat with nothing new costs a count."""
    tournament = open_tournament(alice, rounds=3)
    enter(tournament, [make_bot(alice, f"bot{i}") for i in range(4)])
    tournaments_advance(now=after_entry(tournament))
    asked: list[int] = []
    pair = Swiss.next_games

    def counted(event: Swiss, results: Sequence[Result]) -> list[ScheduledGame]:
        asked.append(len(results))
        return pair(event, results)

    monkeypatch.setattr(Swiss, "next_games", counted)
    for _ in range(3):
        assert tournaments_advance() == []
    assert asked == []
    first, *_ = games_in_play(tournament)
    assert first.match is not None
    finish_match(first.match, scores=lower_seat_wins(first.match))
    tournaments_advance()
    tournaments_advance()
    assert asked == [1], "asked once for the one new result"


def test_the_step_that_finishes_a_tournament_says_it_changed(
    make_bot: MakeBot, alice: User
) -> None:
    tournament = open_tournament(alice, format="gauntlet")
    enter(tournament, [make_bot(alice, "one"), make_bot(alice, "two")])
    tournaments_advance(now=after_entry(tournament))
    for game in games_in_play(tournament):
        assert game.match is not None
        finish_match(game.match, scores=lower_seat_wins(game.match))
    assert tournaments_advance() == [tournament.id]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournaments_advance() == []
