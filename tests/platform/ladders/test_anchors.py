"""Anchors: the reference bots entered on every active ladder as its yardsticks
(agon.ladders.anchors): made once, entered on ladders made later, renewed when the search
code changes, never seated together, and played by the worker with every match's
bookkeeping (a replay, a rating change each side)."""

from __future__ import annotations

from io import StringIO
from pathlib import Path
from random import Random

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from pytest_django import Settings

from agon.bots.models import Bot, BotVersion
from agon.ladders import anchors
from agon.ladders.anchors import ANCHORS_OWNER, anchors_ensure
from agon.ladders.models import Ladder, Rating, RatingChange
from agon.ladders.services import matchmaking_round
from agon.matches.models import Match
from agon.matches.services import match_execute, programs_for
from engine.registry import game_ids
from tests.platform.conftest import MakeBot
from tests.platform.support import latest_version, ranked_match

pytestmark = pytest.mark.django_db


def anchor_bots() -> list[Bot]:
    return list(Bot.objects.filter(owner__username=ANCHORS_OWNER).order_by("game", "name"))


def test_every_anchor_is_rated_on_every_active_ladder_once(
    ladders: list[Ladder], settings: Settings
) -> None:
    settings.AGON_LADDER_ANCHORS = ["mcts-1", "mcts-2", "mcts-3"]
    Ladder.objects.filter(game="attika", players=4).update(active=False)

    made = anchors_ensure()

    assert len(made) == 3 * len(game_ids())
    assert {(bot.game, bot.name) for bot in anchor_bots()} == {
        (game, f"{game}-{name}") for game in game_ids() for name in ("mcts-1", "mcts-2", "mcts-3")
    }
    for ladder in Ladder.objects.filter(active=True):
        rated = Rating.objects.filter(ladder=ladder, bot__owner__username=ANCHORS_OWNER)
        assert sorted(rated.values_list("version__builtin", flat=True)) == [
            "mcts-1",
            "mcts-2",
            "mcts-3",
        ]
    assert not Rating.objects.filter(ladder__active=False).exists()
    version = made[0]
    assert version.status == BotVersion.Status.ACTIVE
    assert version.bot.name == f"{version.bot.game}-{version.builtin}"
    assert version.number == 1 and version.size == 0 and not version.archive
    owner = User.objects.get(username=ANCHORS_OWNER)
    assert not owner.has_usable_password()

    versions = BotVersion.objects.count()
    ratings = Rating.objects.count()
    assert anchors_ensure() == made
    assert (BotVersion.objects.count(), Rating.objects.count()) == (versions, ratings)


def test_a_ladder_made_later_gets_the_anchors_on_the_next_call(
    ladders: list[Ladder], settings: Settings
) -> None:
    settings.AGON_LADDER_ANCHORS = ["mcts-1"]
    anchors_ensure()
    late = Ladder.objects.create(name="Akropolis 2p, no plazas", game="akropolis", players=2)
    competition = Ladder.objects.create(
        name="Akropolis cup 2p", game="akropolis", players=2, open=False
    )

    anchors_ensure()

    assert Rating.objects.filter(ladder=late, bot__owner__username=ANCHORS_OWNER).count() == 1
    assert not Rating.objects.filter(ladder=competition).exists()  # its entrants' alone
    assert BotVersion.objects.filter(bot__owner__username=ANCHORS_OWNER).count() == len(game_ids())


def test_new_search_code_makes_a_new_provisional_version(
    ladder_2p: Ladder, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.AGON_LADDER_ANCHORS = ["mcts-2"]
    (first,) = [v for v in anchors_ensure() if v.bot.game == "akropolis"]
    Rating.objects.filter(bot=first.bot, ladder=ladder_2p).update(version_games=30, games=30)
    monkeypatch.setattr(anchors, "search_digest", lambda: "0" * 64)

    (second,) = [v for v in anchors_ensure() if v.bot.game == "akropolis"]

    assert second.number == 2 and second.sha256 != first.sha256
    first.refresh_from_db()
    assert first.status == BotVersion.Status.RETIRED
    rating = Rating.objects.get(bot=first.bot, ladder=ladder_2p)
    assert (rating.version_id, rating.version_games, rating.games) == (second.id, 0, 30)


def test_no_anchors_and_unknown_ones(ladders: list[Ladder], settings: Settings) -> None:
    settings.AGON_LADDER_ANCHORS = []
    assert anchors_ensure() == []
    assert anchor_bots() == []

    settings.AGON_LADDER_ANCHORS = ["mcts-1", "stockfish"]
    with pytest.raises(ImproperlyConfigured, match="stockfish"):
        anchors_ensure()


def test_the_deployment_command_enters_them(ladders: list[Ladder], settings: Settings) -> None:
    settings.AGON_LADDER_ANCHORS = ["mcts-1", "mcts-3"]
    out = StringIO()

    call_command("ensure_default_ladders", stdout=out)

    assert "anchors on every ladder: mcts-1, mcts-3" in out.getvalue()
    assert len(anchor_bots()) == 2 * len(game_ids())


def test_matchmaking_seats_anchors_with_uploads_never_together(
    ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User, settings: Settings
) -> None:
    Ladder.objects.exclude(id=ladder_2p.id).update(active=False)
    settings.AGON_LADDER_ANCHORS = ["mcts-1", "mcts-2", "mcts-3"]
    anchors_ensure()
    make_bot(alice, "ant")
    make_bot(bob, "bee")
    settings.AGON_QUEUE_TARGET = 40

    matchmaking_round(rng=Random(3))

    tables = [
        list(match.seats.values_list("version__bot__owner__username", flat=True))
        for match in Match.objects.filter(kind=Match.Kind.RANKED)
    ]
    assert tables
    assert all(owners.count(ANCHORS_OWNER) <= 1 for owners in tables)
    assert any(ANCHORS_OWNER in owners for owners in tables)


def test_a_ranked_match_against_an_anchor_plays_and_rates_both(
    ladder_2p: Ladder, make_bot: MakeBot, alice: User, settings: Settings, tmp_path: Path
) -> None:
    """On the test settings' sandbox (bwrap): the upload boxed, the anchor in the worker."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.AGON_WORK_DIR = tmp_path / "work"
    settings.AGON_LADDER_ANCHORS = ["mcts-1"]
    (anchor,) = [v for v in anchors_ensure() if v.bot.game == "akropolis"]
    upload = latest_version(make_bot(alice, "ant"))
    match = ranked_match(ladder_2p, [anchor, upload], seed=7)

    assert [program.bot_id for program in programs_for(match)] == [
        "builtin:mcts-1",
        upload.label,
    ]
    assert match_execute(match_id=match.id)

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.error
    changes = RatingChange.objects.filter(match=match)
    assert sorted(changes.values_list("bot_id", flat=True)) == sorted(
        [anchor.bot_id, upload.bot_id]
    )
    assert match.replay


def test_the_leaderboard_marks_the_anchors(
    ladder_2p: Ladder, make_bot: MakeBot, alice: User, settings: Settings, client: Client
) -> None:
    settings.AGON_LADDER_ANCHORS = ["mcts-2"]
    anchors_ensure()
    make_bot(alice, "ant")

    page = client.get(reverse("web:ladder", args=[ladder_2p.id])).content.decode()

    assert page.count('class="badge badge-anchor"') == 1
    assert "akropolis-mcts-2</a>" in page and "ant</a>" in page


def test_ladders_of_anchors_alone_starve_no_other_ladder(
    ladders: list[Ladder], make_bot: MakeBot, alice: User, bob: User, settings: Settings
) -> None:
    """Every game's ladders have the anchors, one owner's bots that never meet; only
    Architekton has uploads. Its ladder still gets every match a round makes (the
    anchors' ladders, whose bots played least, used to take them all and seat none)."""
    settings.AGON_LADDER_ANCHORS = ["mcts-1", "mcts-2", "mcts-3"]
    settings.AGON_QUEUE_TARGET = 2
    anchors_ensure()
    make_bot(alice, "ant", game="architekton")
    make_bot(bob, "bee", game="architekton")

    made = matchmaking_round(rng=Random(5))

    assert len(made) == 2
    assert {match.game for match in made} == {"architekton"}


def test_the_search_digest_covers_the_search_and_every_game_s_greedy_bot() -> None:
    files = {path.as_posix() for path in anchors.search_code()}

    assert all(path.exists() for path in anchors.search_code())
    assert any(path.endswith("engine/search/guided.py") for path in files)
    for game in game_ids():  # the greedy bot ranks a search bot's candidates
        assert any(path.endswith(f"engine/{game}/greedy.py") for path in files), game
