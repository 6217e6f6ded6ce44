"""`agon ratings recompute` and `agon ratings fit` (`agon.ladders.recompute`): a ladder's
stored ranked results replayed through the current rating code, and the offline fit."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from agon.bots.models import Bot, BotVersion
from agon.cli import main
from agon.ladders.models import Ladder, Rating, RatingChange
from agon.ladders.recompute import ladder_fit, ladder_recompute
from agon.ladders.services import ladder_match_create
from agon.matches.models import Match
from competition import ratings
from competition.ratings.fit import bradley_terry
from tests.platform.conftest import MakeBot
from tests.platform.support import finish_match, play_ranked

pytestmark = pytest.mark.django_db


def stored(ladder: Ladder) -> dict[int, tuple[float, float | None, int, int, bool]]:
    return {
        row.bot_id: (row.rating, row.deviation, row.games, row.wins, row.rankable)
        for row in Rating.objects.filter(ladder=ladder)
    }


@pytest.fixture
def played(ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User) -> list[Bot]:
    """Four bots, the first the strongest: 24 ranked matches, a tie among them, and a
    challenge the ratings must ignore."""
    bots = [make_bot(alice if i % 2 else bob, f"bot{i}") for i in range(4)]
    for round_ in range(4):
        for i in range(4):
            for j in range(i + 1, 4):
                if round_ == 3 and (i, j) != (0, 1):
                    continue
                scores = [5, 5] if (round_, i, j) == (1, 2, 3) else [9, 3]
                play_ranked(ladder_2p, [bots[i], bots[j]], scores=scores)
    versions = [BotVersion.objects.get(bot=bot, status="active") for bot in bots[2:]]
    challenge = ladder_match_create(ladder=ladder_2p, kind=Match.Kind.CHALLENGE, seats=versions)
    finish_match(challenge, scores=[1, 9])
    return bots


def test_replaying_the_live_results_gives_the_live_ratings(
    ladder_2p: Ladder, played: list[Bot]
) -> None:
    live = stored(ladder_2p)
    live_changes = sorted(RatingChange.objects.values_list("match_id", "bot_id", "after"))

    report = ladder_recompute(ladder=ladder_2p)

    assert report.matches == 19 and report.bots == 4 and report.ranks_moved == 0
    for bot, (rating, deviation, games, wins, rankable) in stored(ladder_2p).items():
        assert rating == pytest.approx(live[bot][0], abs=0.01)
        assert deviation == pytest.approx(live[bot][1], abs=0.01)
        assert (games, wins, rankable) == live[bot][2:]
    replayed = sorted(RatingChange.objects.values_list("match_id", "bot_id", "after"))
    assert [row[:2] for row in replayed] == [row[:2] for row in live_changes]
    assert [row[2] for row in replayed] == pytest.approx([row[2] for row in live_changes])


def test_it_repairs_ratings_a_bug_left_wrong_and_counts_the_ranks_it_moved(
    ladder_2p: Ladder, played: list[Bot]
) -> None:
    live = stored(ladder_2p)
    # A bug once swapped the best and the worst bot and left them all settled.
    best, worst = played[0].id, played[3].id
    Rating.objects.filter(ladder=ladder_2p).update(rankable=True, deviation=50.0)
    Rating.objects.filter(bot_id=best).update(rating=live[worst][0])
    Rating.objects.filter(bot_id=worst).update(rating=live[best][0])
    wrong = stored(ladder_2p)

    dry = ladder_recompute(ladder=ladder_2p, dry_run=True)
    assert stored(ladder_2p) == wrong, "a dry run stores nothing"
    report = ladder_recompute(ladder=ladder_2p)

    assert dry.ranks_moved == report.ranks_moved
    assert report.before[best][0] == 4
    assert report.after[best][1] == max(value for _, value in report.after.values())
    moved = sum(report.before[bot][0] != report.after[bot][0] for bot in report.after)
    assert report.ranks_moved == moved >= 2
    assert stored(ladder_2p)[best][0] == pytest.approx(live[best][0], abs=0.01)


def test_the_offline_fit_orders_the_bots_by_their_results(
    ladder_2p: Ladder, played: list[Bot]
) -> None:
    fitted = ladder_fit(ladder=ladder_2p)
    assert sorted(fitted, key=fitted.__getitem__, reverse=True) == [bot.id for bot in played]
    assert sum(fitted.values()) / 4 == pytest.approx(ratings.initial().value)


def test_the_fit_of_a_tie_is_even_and_a_sweep_finite() -> None:
    even = bradley_terry([(["a", "b"], [1, 1])] * 3, centre=1500.0)
    assert even == pytest.approx({"a": 1500.0, "b": 1500.0})
    sweep = bradley_terry([(["a", "b", "c"], [1, 2, 3])] * 5, centre=1500.0)
    assert sweep["a"] > sweep["b"] > sweep["c"] > 0


def test_the_commands_print_the_ranks_moved_and_the_fit(
    ladder_2p: Ladder, played: list[Bot], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ratings", "recompute", ladder_2p.name, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert f"{ladder_2p.name}: replayed 19 ranked matches of 4 bots; 0 ranks would move" in out
    assert main(["ratings", "fit", str(ladder_2p.id)]) == 0
    out = capsys.readouterr().out
    assert "offline Bradley-Terry fit" in out and "bob/bot0" in out
    assert main(["ratings", "fit", "no such ladder"]) == 2
