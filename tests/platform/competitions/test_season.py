"""A season from end to end on the services, the matches finished by hand: entry, open,
freeze (versions locked, new uploads play elsewhere only), final (the top N of the
ladder on their frozen versions, seeded by it), archive (copies that later changes leave
alone), and each phase's notice sent once."""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth.models import User

from agon.bots.models import Bot, BotVersion
from agon.bots.services import version_submit
from agon.competitions.models import ArchivedGame, ArchivedStanding, Competition
from agon.competitions.phases import competition_step
from agon.ladders.models import Ladder, Rating
from agon.ladders.services import matchmaking_round
from agon.matches.models import Match
from agon.notifications.models import Notification
from agon.tournaments.models import Tournament
from tests.platform.competitions.support import (
    at,
    climb,
    enter,
    first_wins,
    its_ladder,
    season,
    staff_user,
)
from tests.platform.conftest import MakeBot
from tests.platform.support import BOT_SOURCE, latest_version, pass_validation, py_upload
from tests.platform.tournaments.support import play_out

Phase = Competition.Phase


@pytest.fixture
def bots(make_bot: MakeBot, alice: User, bob: User, carol: User) -> list[Bot]:
    return [make_bot(alice, "ant"), make_bot(bob, "bee"), make_bot(carol, "cat")]


def test_a_season_runs_open_freeze_final_and_archive(bots: list[Bot], alice: User) -> None:
    ant, bee, cat = bots
    competition = season(staff_user())
    enter(competition, bots)
    ladder = its_ladder(competition)
    assert not ladder.open and not ladder.active
    assert Rating.objects.filter(ladder=ladder).count() == 3

    assert at(competition.opens) == [(competition.id, Phase.OPEN)]
    ladder.refresh_from_db()
    assert ladder.active
    climb(ladder, [cat, bee, ant])  # cat leads, then bee, then ant

    assert at(competition.freezes) == [(competition.id, Phase.FROZEN)]
    competition.refresh_from_db()
    frozen = {entry.bot_id: entry.version_id for entry in competition.entries.all()}
    assert frozen == {bot.id: latest_version(bot).id for bot in bots}

    # Cat's author uploads a better bot after the freeze: it plays the open ladder, not
    # the competition's, and matchmaking there still seats the frozen version.
    new = version_submit(bot=cat, upload=py_upload(data=BOT_SOURCE + b"# better\n"))
    pass_validation(new)
    assert new.status == BotVersion.Status.ACTIVE
    assert Rating.objects.get(ladder=ladder, bot=cat).version_id == frozen[cat.id]
    open_ladder = Ladder.objects.get(game="akropolis", players=2, open=True)
    assert Rating.objects.get(ladder=open_ladder, bot=cat).version_id == new.id
    made = matchmaking_round()
    seated = Counter(
        (match.ladder_id, seat.version.bot_id, seat.version_id)
        for match in made
        for seat in match.seats.select_related("version")
    )
    on_competition = {key for key in seated if key[0] == ladder.id}
    assert on_competition, "the frozen ladder plays on"
    assert all(frozen[bot_id] == version_id for _, bot_id, version_id in on_competition)
    Match.objects.filter(id__in=[match.id for match in made]).delete()

    assert at(competition.final_starts) == [(competition.id, Phase.FINAL)]
    competition.refresh_from_db()
    ladder.refresh_from_db()
    assert not ladder.active
    final = competition.final
    assert final is not None and final.status == Tournament.Status.RUNNING and final.public
    finalists = list(final.entries.order_by("number").values_list("bot_id", "version_id"))
    assert finalists == [(cat.id, frozen[cat.id]), (bee.id, frozen[bee.id])]  # seeded by the ladder
    ant_entry = competition.entries.get(bot=ant)
    assert not ant_entry.finalist and ant_entry.ladder_place == 3

    play_out(final, decide=lambda match: first_wins(match, cat))
    assert at(competition.final_starts) == [(competition.id, Phase.FINISHED)]
    competition.refresh_from_db()
    assert competition.phase == Phase.FINISHED
    standings = list(ArchivedStanding.objects.filter(competition=competition))
    assert [(row.bot_name, row.rank, row.ladder_place) for row in standings] == [
        ("cat", 1, 1),
        ("bee", 2, 2),
        ("ant", None, 3),
    ]
    cat_row = standings[0]
    assert cat_row.version_digest == BotVersion.objects.get(id=frozen[cat.id]).sha256
    assert cat_row.owner_name == "carol"
    games = list(ArchivedGame.objects.filter(competition=competition))
    assert len(games) == final.games.count() >= 1
    assert all(game.rules_version == 1 and game.replay for game in games)

    # Nothing later alters the archive: a rename, a rating change, the final's rows.
    cat.name = "renamed"
    cat.save()
    Rating.objects.filter(ladder=ladder).update(rating=0)
    final.standings = []
    final.save()
    again = list(ArchivedStanding.objects.filter(competition=competition))
    assert [(row.bot_name, row.rank, row.points) for row in again] == [
        (row.bot_name, row.rank, row.points) for row in standings
    ]
    assert at(competition.final_starts) == []  # and it is over for good

    told = Counter(
        (note.user.username, note.key)
        for note in Notification.objects.filter(kind__startswith="competition_")
    )
    for user in ("alice", "bob", "carol"):
        for phase in ("open", "frozen", "final"):
            assert told[(user, f"competition_phase:{competition.id}:{phase}")] == 1
        assert told[(user, f"competition_result:{competition.id}")] == 1
    assert set(told.values()) == {1}
    result = Notification.objects.get(user=alice, kind="competition_result")
    assert "ant was 3 on the ladder" in result.text


def test_a_phase_changes_once_however_often_beat_runs(bots: list[Bot]) -> None:
    competition = season(staff_user())
    enter(competition, bots)
    assert competition_step(competition_id=competition.id) is None  # not due yet
    moment = competition.freezes
    assert at(moment) == [(competition.id, Phase.OPEN), (competition.id, Phase.FROZEN)]
    assert at(moment) == []
    assert competition_step(competition_id=competition.id) is None
    assert Notification.objects.filter(kind="competition_phase").count() == 2 * 3


def test_too_few_finalists_with_a_version_cancel_it(bots: list[Bot]) -> None:
    ant, bee, _ = bots
    competition = season(staff_user())
    enter(competition, [ant, bee])
    ant.retired = ant.created
    ant.save()
    at(competition.freezes)
    assert at(competition.final_starts) == [(competition.id, Phase.CANCELLED)]
    competition.refresh_from_db()
    assert competition.final is None
    assert "fewer than the 2" in competition.note
    assert not its_ladder(competition).active


def test_a_cancelled_final_cancels_the_competition(bots: list[Bot]) -> None:
    competition = season(staff_user())
    enter(competition, bots)
    at(competition.final_starts)
    competition.refresh_from_db()
    assert competition.final is not None
    Tournament.objects.filter(id=competition.final.id).update(
        status=Tournament.Status.CANCELLED, note="stopped by staff"
    )
    assert at(competition.final_starts) == [(competition.id, Phase.CANCELLED)]
    competition.refresh_from_db()
    assert "stopped by staff" in competition.note
    assert not ArchivedStanding.objects.filter(competition=competition).exists()
