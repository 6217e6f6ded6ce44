"""A retired bot (`agon.bots.retirement`): matchmaking seats it no more, a new version
does not bring it back, tournaments and other users' challenges leave it out; brought
back, it plays again on its rating.

These run on SQLite too (tests/platform/test_private_events_on_sqlite.py)."""

from __future__ import annotations

from random import Random

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils import timezone

from agon.bots.models import Bot
from agon.bots.retirement import bot_reactivate, bot_retire
from agon.bots.services import version_submit
from agon.ladders.models import Ladder, Rating
from agon.ladders.services import challenge_create, matchmaking_round
from agon.matches.models import Match
from agon.tournaments.models import Tournament
from agon.tournaments.scheduling import tournament_close_entry
from agon.tournaments.services import entry_create
from tests.platform.conftest import MakeBot
from tests.platform.support import latest_version, pass_validation, py_upload
from tests.platform.tournaments.support import after_entry, enter, open_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def three(make_bot: MakeBot, alice: User, bob: User, carol: User) -> list[Bot]:
    return [make_bot(alice, "hero"), make_bot(bob, "rival"), make_bot(carol, "third")]


def seated_in_new_matches(rounds: int = 5) -> set[int]:
    made = [match for number in range(rounds) for match in matchmaking_round(rng=Random(number))]
    assert made, "matchmaking made no match at all"
    return {seat.version.bot_id for m in made for seat in m.seats.all() if seat.version}


def test_matchmaking_seats_a_retired_bot_no_more(three: list[Bot], ladder_2p: Ladder) -> None:
    hero, rival, third = three
    bot_retire(bot=hero)

    seated = seated_in_new_matches()

    assert hero.id not in seated
    assert {rival.id, third.id} <= seated


def test_a_reactivated_bot_is_seated_again(three: list[Bot], ladder_2p: Ladder) -> None:
    hero = three[0]
    bot_retire(bot=hero)
    bot_reactivate(bot=hero)

    assert hero.id in seated_in_new_matches()


def test_a_new_version_of_a_retired_bot_keeps_it_off_the_ladders(
    three: list[Bot], ladder_2p: Ladder
) -> None:
    hero = three[0]
    bot_retire(bot=hero)

    pass_validation(version_submit(bot=hero, upload=py_upload()))

    rating = Rating.objects.get(bot=hero, ladder=ladder_2p)
    assert rating.version == latest_version(hero)
    assert not rating.active
    assert hero.id not in seated_in_new_matches()


def test_a_retired_bot_that_never_had_a_rating_gets_none_on_the_boards(
    make_bot: MakeBot, alice: User, ladders: list[Ladder]
) -> None:
    pending = make_bot(alice, "pending", active=False)
    bot_retire(bot=pending)

    pass_validation(latest_version(pending))

    assert Rating.objects.filter(bot=pending).exists()
    assert not Rating.objects.filter(bot=pending, active=True).exists()


def test_a_retired_bot_is_not_entered_into_a_tournament(three: list[Bot], alice: User) -> None:
    hero = three[0]
    tournament = open_tournament(alice)
    bot_retire(bot=hero)

    with pytest.raises(
        ValidationError, match="the bot 'hero' is retired: its owner brings it back"
    ):
        entry_create(user=alice, tournament_id=tournament.id, bot_id=hero.id)


def test_a_bot_retired_after_its_entry_does_not_play_the_tournament(three: list[Bot]) -> None:
    tournament = open_tournament(User.objects.create_user("staff", is_staff=True), public=True)
    enter(tournament, three)
    bot_retire(bot=three[0])

    assert tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    playing = tournament.entries.filter(number__isnull=False).values_list("bot_id", flat=True)
    assert sorted(playing) == sorted(bot.id for bot in three[1:])
    assert "1 entered bots had no active version or were retired" in tournament.note


def test_nobody_challenges_another_users_retired_bot(
    three: list[Bot], ladder_2p: Ladder, alice: User, bob: User
) -> None:
    hero, rival, _ = three
    bot_retire(bot=hero)

    with pytest.raises(ValidationError, match="the bot 'hero' is retired: it takes no"):
        challenge_create(user=bob, ladder=ladder_2p, bot_ids=[rival.id, hero.id])
    own = challenge_create(user=alice, ladder=ladder_2p, bot_ids=[hero.id, rival.id])
    assert own.kind == Match.Kind.CHALLENGE


def test_retiring_keeps_the_time_it_was_first_retired(three: list[Bot]) -> None:
    hero = three[0]
    before = timezone.now()
    bot_retire(bot=hero)
    first = hero.retired
    bot_retire(bot=hero)

    assert first is not None and first >= before and hero.retired == first
