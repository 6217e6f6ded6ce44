"""Making a competition (the service's checks, the command, the admin) and the races a
phase change must win: two beats at once, and a version passing as the freeze locks."""

from __future__ import annotations

import threading
from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.test import Client
from django.utils import timezone

from agon.bots.models import Bot
from agon.bots.services import version_submit
from agon.competitions.models import Competition
from agon.competitions.phases import competitions_advance
from agon.ladders.models import Ladder, Rating
from agon.ladders.services import ratings_enter
from agon.notifications.models import Notification
from tests.platform.competitions.support import at, enter, its_ladder, season, staff_user
from tests.platform.conftest import MakeBot
from tests.platform.support import BOT_SOURCE, pass_validation, py_upload

Phase = Competition.Phase


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("settings", "refusal"),
    [
        ({"game": "chess"}, "there is no game"),
        ({"player_counts": [7]}, "akropolis is played by"),
        ({"final_players": 3}, "one of the competition's player counts"),
        ({"final_format": "lottery"}, "the format is one of"),
        ({"final_size": 1}, "a final takes 2 to"),
        ({"final_size": 100_000}, "a final takes 2 to"),
        ({"player_counts": [3], "final_players": 3}, "a final takes 3 to"),
        ({"freezes": timezone.now() - timedelta(days=1)}, "in this order"),
        ({"name": " "}, "1 to 80 characters"),
        ({"rules": "x" * 20_001}, "at most 20000"),
    ],
)
def test_a_competition_with_wrong_settings_is_refused(
    settings: dict[str, object], refusal: str
) -> None:
    with pytest.raises(ValidationError, match=refusal):
        season(staff_user(), **settings)
    assert not Competition.objects.exists()
    assert not Ladder.objects.filter(open=False).exists()


@pytest.mark.django_db
def test_only_staff_make_one_and_names_are_unique(alice: User) -> None:
    with pytest.raises(PermissionDenied):
        season(alice)
    staff = staff_user()
    season(staff)
    with pytest.raises(ValidationError, match="already"):
        season(staff)


@pytest.mark.django_db
def test_the_command_makes_one_with_dates_from_now() -> None:
    staff_user("stella")
    out = StringIO()
    call_command(
        "competition_create",
        "Quick season",
        "--staff=stella",
        "--game=akropolis",
        "--players",
        "2",
        "3",
        "--final-players=3",
        "--freezes=+10",
        "--final=+20",
        "--format=swiss",
        "--final-size=6",
        stdout=out,
    )
    competition = Competition.objects.get(name="Quick season")
    assert f"competition {competition.id}" in out.getvalue()
    assert sorted(competition.ladders.values_list("players", flat=True)) == [2, 3]
    assert timedelta(minutes=9) < competition.freezes - timezone.now() < timedelta(minutes=11)
    with pytest.raises(CommandError, match="no staff user"):
        call_command(
            "competition_create",
            "Other",
            "--staff=nobody",
            "--game=akropolis",
            "--freezes=+1",
            "--final=+2",
        )
    with pytest.raises(CommandError, match="in this order"):
        call_command(
            "competition_create",
            "Other",
            "--staff=stella",
            "--game=akropolis",
            "--freezes=+5",
            "--final=+2",
        )


@pytest.mark.django_db
def test_staff_make_one_in_the_admin_and_a_mistake_shows_on_the_form() -> None:
    User.objects.create_superuser("root", password="x" * 12)
    client = Client()
    client.login(username="root", password="x" * 12)
    now = timezone.now()
    form = {
        "name": "Admin season",
        "game": "akropolis",
        "player_counts": "[2]",
        "options": "{}",
        "rules": "",
        "opens_0": (now + timedelta(hours=1)).strftime("%Y-%m-%d"),
        "opens_1": (now + timedelta(hours=1)).strftime("%H:%M:%S"),
        "freezes_0": (now + timedelta(days=2)).strftime("%Y-%m-%d"),
        "freezes_1": "12:00:00",
        "final_starts_0": (now + timedelta(days=3)).strftime("%Y-%m-%d"),
        "final_starts_1": "12:00:00",
        "final_format": "round-robin",
        "final_size": "4",
        "final_players": "2",
        "final_meetings": "1",
        "final_rounds": "",
        "entries-TOTAL_FORMS": "0",
        "entries-INITIAL_FORMS": "0",
        "archived_standings-TOTAL_FORMS": "0",
        "archived_standings-INITIAL_FORMS": "0",
    }
    wrong = client.post("/admin/competitions/competition/add/", {**form, "final_size": "1"})
    assert wrong.status_code == 200 and "a final takes 2 to" in wrong.content.decode()
    made = client.post("/admin/competitions/competition/add/", form)
    assert made.status_code == 302, made.content.decode()[:2000]
    competition = Competition.objects.get(name="Admin season")
    assert competition.ladders.get().open is False


@pytest.mark.django_db
def test_a_bot_not_entered_is_never_rated_on_a_competitions_ladder(
    make_bot: MakeBot, alice: User, bob: User
) -> None:
    competition = season(staff_user())
    entered, other = make_bot(alice, "ant"), make_bot(bob, "bee")
    enter(competition, [entered])
    at(competition.opens)
    ladder = its_ladder(competition)
    newer = version_submit(bot=other, upload=py_upload(data=BOT_SOURCE + b"# 2\n"))
    pass_validation(newer)
    assert list(Rating.objects.filter(ladder=ladder).values_list("bot_id", flat=True)) == [
        entered.id
    ]
    # An entered bot's new version plays for it there until the freeze.
    again = version_submit(bot=entered, upload=py_upload(data=BOT_SOURCE + b"# 3\n"))
    pass_validation(again)
    assert Rating.objects.get(ladder=ladder, bot=entered).version_id == again.id


def _bots(make_bot: MakeBot, alice: User, bob: User) -> list[Bot]:
    return [make_bot(alice, "ant"), make_bot(bob, "bee")]


@pytest.mark.django_db(transaction=True)
def test_two_beats_at_once_freeze_it_once(make_bot: MakeBot, alice: User, bob: User) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite writes one at a time: there is no race to run")
    competition = season(staff_user())
    enter(competition, _bots(make_bot, alice, bob))
    at(competition.opens)
    moment = competition.freezes + timedelta(seconds=1)
    results: list[list[tuple[int, str]]] = []
    start = threading.Barrier(4)

    def beat() -> None:
        start.wait()
        try:
            results.append(competitions_advance(now=moment))
        finally:
            connection.close()

    threads = [threading.Thread(target=beat) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    changes = [change for result in results for change in result]
    assert changes == [(competition.id, Phase.FROZEN)]
    assert Notification.objects.filter(key__endswith=":frozen").count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_version_passing_as_the_freeze_locks_stays_out(
    make_bot: MakeBot, alice: User, bob: User
) -> None:
    """The freeze holds the competition's ladders: a version entering ratings meanwhile
    waits, then finds them pinned and leaves them alone."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite writes one at a time: there is no race to run")
    competition = season(staff_user())
    ant, bee = _bots(make_bot, alice, bob)
    enter(competition, [ant, bee])
    at(competition.opens)
    frozen_version = ant.versions.get()
    newer = version_submit(bot=ant, upload=py_upload(data=BOT_SOURCE + b"# late\n"))
    done = threading.Event()

    def enter_ratings() -> None:
        try:
            with transaction.atomic():
                ratings_enter(version=newer)
        finally:
            done.set()
            connection.close()

    with transaction.atomic():
        competitions_advance(now=competition.freezes + timedelta(seconds=1))  # not committed
        thread = threading.Thread(target=enter_ratings)
        thread.start()
        assert not done.wait(timeout=1.0), "the version did not wait for the freeze"
    thread.join(timeout=30)
    rating = Rating.objects.get(ladder=its_ladder(competition), bot=ant)
    assert rating.version_id == frozen_version.id
    assert competition.entries.get(bot=ant).version_id == frozen_version.id
